// gltf-validate.mjs NPM_PREFIX PACKAGE_DIR — runs the Khronos glTF Validator
// (npm gltf-validator, installed under NPM_PREFIX by test-gltf.sh) on
// PACKAGE_DIR/water.glb: no errors, no warnings (infos are printed), and the
// asset agrees with PACKAGE_DIR/manifest.json. Exit status 1 on a failure.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [prefix, dir] = process.argv.slice(2);
const validator = createRequire(path.join(path.resolve(prefix), 'package.json'))('gltf-validator');
const file = path.join(dir, 'water.glb');
const data = readFileSync(file);
const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

let failures = 0;
function check(ok, what) {
  console.log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
  if (!ok) failures++;
}

const report = await validator.validateBytes(new Uint8Array(data), {
  uri: 'water.glb',
  maxIssues: 0,
  // Everything is embedded: a request for another file is a failure.
  externalResourceFunction: (uri) => Promise.reject(new Error(`external resource ${uri}`)),
});
for (const m of report.issues.messages)
  console.log(`  [${['error', 'warning', 'info', 'hint'][m.severity]}] ${m.code} ${m.pointer ?? ''}: ${m.message}`);
const { numErrors, numWarnings, numInfos, numHints } = report.issues;
console.log(`validator ${report.validatorVersion}: ${numErrors} errors, ${numWarnings} warnings, ` +
            `${numInfos} infos, ${numHints} hints`);
check(numErrors === 0, 'no validation errors');
check(numWarnings === 0, 'no validation warnings');
check(report.info.version === '2.0', 'glTF 2.0');
check(report.info.generator === `wavegraph ${manifest.tool.replace(/^wavegraph /, '')}`,
      `generator "${report.info.generator}" is the manifest's tool`);
// One primitive (a draw call): nq × nq quads, nq = the texture's side up to 128.
const nq = Math.min(manifest.maps.normal_foam.width, manifest.maps.normal_foam.height, 128);
check(report.info.drawCallCount === 1 && report.info.totalVertexCount === (nq + 1) ** 2 &&
      report.info.totalTriangleCount === 2 * nq * nq,
      `one primitive of ${report.info.totalTriangleCount} triangles, ${report.info.totalVertexCount} vertices`);

// The JSON chunk: 12-byte header, then chunk length and type.
const jsonLength = data.readUInt32LE(12);
const gltf = JSON.parse(data.subarray(20, 20 + jsonLength).toString('utf8'));
const [lx, ly] = manifest.patch_size_m;
const prim = gltf.meshes[0].primitives[0];
const pos = gltf.accessors[prim.attributes.POSITION];
check(JSON.stringify(pos.min) === JSON.stringify([0, 0, -ly]) &&
      JSON.stringify(pos.max) === JSON.stringify([lx, 0, 0]),
      `POSITION spans the patch: min ${JSON.stringify(pos.min)} max ${JSON.stringify(pos.max)}`);
for (const a of ['NORMAL', 'TANGENT', 'TEXCOORD_0'])
  check(a in prim.attributes, `attribute ${a}`);

const material = gltf.materials[prim.material];
const pbr = material.pbrMetallicRoughness;
check(pbr.metallicFactor === 0 && pbr.roughnessFactor < 0.2, 'non-metallic, smooth material');
const texture = gltf.textures[material.normalTexture.index];
const sampler = gltf.samplers[texture.sampler];
check(sampler.wrapS === 10497 && sampler.wrapT === 10497, 'normal texture sampler REPEATs');
const image = gltf.images[texture.source];
const resource = report.info.resources.find((r) => r.pointer === `/images/${texture.source}`);
check(image.mimeType === 'image/png' && resource?.mimeType === 'image/png' &&
      resource.storage === 'buffer-view' && resource.image?.bits === 8 &&
      resource.image?.width === manifest.maps.normal_foam.width &&
      resource.image?.height === manifest.maps.normal_foam.height,
      `normal map embedded, ${resource?.image?.width}x${resource?.image?.height} ${resource?.image?.bits}-bit ${resource?.mimeType}`);

const extras = material.extras?.wavegraph;
check(extras?.frame_count === manifest.frame_count && extras?.frame_rate === manifest.frame_rate &&
      extras?.loop_period_s === manifest.loop_period_s,
      'extras give the manifest\'s frame count, rate and loop period');
const disp = manifest.maps.displacement;
check(extras?.displacement?.frames === disp.frames && extras?.displacement?.atlas === disp.atlas &&
      extras.displacement.min.every((v, c) => Math.abs(v - disp.channels[c].min) < 1e-9) &&
      extras.displacement.max.every((v, c) => Math.abs(v - disp.channels[c].max) < 1e-9),
      'extras give the displacement files and ranges');

console.log(failures ? `${failures} checks failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
