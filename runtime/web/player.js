// player.js — plays a `wavegraph export` package in WebGL2 (docs/export.md):
// a tiled sea displaced by the displacement atlas, shaded per pixel with the
// runtime's own surface-shading.glsl (copied beside this file by the
// exporter) under its analytic sky, the look from look.json (the graph's
// surface-shade parameters), and an orbit camera.
//
// ?frame=N holds frame N (drawn when the view changes, no animation).
// ?debug=height&frame=N draws frame N's height, top-down, one patch texel
// per square of window.wg.scale pixels (texel (i, j) at canvas column
// i·scale … and row (h − 1 − j)·scale … from the top), as grey
// (height − min) / (max − min) with the manifest's displacement B range.
// window.wg.ready turns true once a frame is drawn.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { EXRLoader } from 'three/addons/loaders/EXRLoader.js';

const query = new URLSearchParams(location.search);
const debug = query.get('debug');
const info = document.getElementById('info');
const wg = { ready: false };
window.wg = wg;

async function fetchOk(url) {
  const r = await fetch(url);
  if (!r.ok)
    throw new Error(`${url}: HTTP ${r.status}`);
  return r;
}

const [manifest, look, shadingSource] = await Promise.all([
  fetchOk('../manifest.json').then((r) => r.json()),
  fetchOk('look.json').then((r) => r.json()),
  fetchOk('surface-shading.glsl').then((r) => r.text()),
]);
const disp = manifest.maps.displacement;
const nf = manifest.maps.normal_foam;
const nFrames = manifest.frame_count;
const tile = [disp.atlas_layout.tile_width, disp.atlas_layout.tile_height];
const cols = disp.atlas_layout.columns;

// The displacement atlas as RGBA half floats (EXRLoader stores the file's
// last row first); the normal+foam atlas as 8-bit RGBA, its colour kept
// where foam (alpha) is 0, row 0 first.
const exr = new EXRLoader().setDataType(THREE.HalfFloatType);
const [dispAtlas, nfBitmap] = await Promise.all([
  exr.loadAsync('../' + disp.atlas),
  fetchOk('../' + nf.atlas)
    .then((r) => r.blob())
    .then((b) => createImageBitmap(b, { premultiplyAlpha: 'none', colorSpaceConversion: 'none' })),
]);
for (const t of [dispAtlas]) {
  t.minFilter = t.magFilter = THREE.NearestFilter;
  t.generateMipmaps = false;
}
const nfAtlas = new THREE.Texture(nfBitmap);
nfAtlas.flipY = false;
nfAtlas.premultiplyAlpha = false;
nfAtlas.colorSpace = THREE.NoColorSpace;
nfAtlas.minFilter = nfAtlas.magFilter = THREE.NearestFilter;
nfAtlas.generateMipmaps = false;
nfAtlas.needsUpdate = true;

const renderer = new THREE.WebGLRenderer({ antialias: !debug, powerPreference: 'high-performance' });
renderer.setPixelRatio(debug ? 1 : Math.min(window.devicePixelRatio, 2));
document.body.appendChild(renderer.domElement);
wg.renderer = renderer;

// GLSL ES 3.00 (three writes the #version line) wants precisions and an
// ASCII source: the runtime's file has Unicode in its comments only.
const header = 'precision highp float;\nprecision highp int;\nprecision highp sampler2D;\n';
const ascii = (source) => source.replace(/[^\x00-\x7f]/g, '?');
const shading = ascii(shadingSource);

// Where frame k's texel (i, j) of a map is in its atlas, as texelFetch()
// indexes it: tiles in columns and rows from the atlas's top; the
// displacement rows reversed as EXRLoader leaves them.
const atlasGlsl = `
uniform sampler2D u_disp;
uniform ivec2 u_tile;
uniform int u_cols;
ivec2 tile_origin (int k) { return ivec2 (k % u_cols, k / u_cols) * u_tile; }
vec4 disp_texel (int k, ivec2 ij)
{
  ivec2 t = tile_origin (k) + ((ij % u_tile) + u_tile) % u_tile;
  return texelFetch (u_disp, ivec2 (t.x, textureSize (u_disp, 0).y - 1 - t.y), 0);
}
`;

function rawMaterial(vertex, fragment, uniforms, extra = {}) {
  return new THREE.RawShaderMaterial({
    glslVersion: THREE.GLSL3,
    vertexShader: header + ascii(vertex),
    fragmentShader: header + ascii(fragment),
    uniforms,
    ...extra,
  });
}

const fullscreenVertex = `
in vec3 position;
void main () { gl_Position = vec4 (position.xy, 0.0, 1.0); }
`;
const quad = new THREE.PlaneGeometry(2, 2);
const screenCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);

const common = {
  u_disp: { value: dispAtlas },
  u_tile: { value: new THREE.Vector2(tile[0], tile[1]) },
  u_cols: { value: cols },
};

if (debug === 'height')
  showHeight();
else if (debug)
  throw new Error(`debug=${debug}: the player knows debug=height`);
else
  play();

function showHeight() {
  const k = Number(query.get('frame') ?? 0);
  if (!Number.isInteger(k) || k < 0 || k >= nFrames)
    throw new Error(`frame=${query.get('frame')}: expected 0 … ${nFrames - 1}`);
  const range = disp.channels[2];
  const scale = Math.max(1, Math.floor(512 / Math.max(tile[0], tile[1])));
  const material = rawMaterial(fullscreenVertex, atlasGlsl + `
uniform int u_frame;
uniform int u_scale;
uniform vec2 u_range;
out vec4 o_colour;
void main ()
{
  ivec2 ij = ivec2 (gl_FragCoord.xy) / u_scale;
  float h = disp_texel (u_frame, ij).z;
  o_colour = vec4 (vec3 (clamp ((h - u_range.x) / (u_range.y - u_range.x), 0.0, 1.0)), 1.0);
}
`, { ...common, u_frame: { value: k }, u_scale: { value: scale },
     u_range: { value: new THREE.Vector2(range.min, range.max) } });
  const scene = new THREE.Scene();
  scene.add(new THREE.Mesh(quad, material));
  renderer.setSize(tile[0] * scale, tile[1] * scale);
  wg.scale = scale;
  wg.tile = tile;
  wg.render = () => renderer.render(scene, screenCamera);
  wg.render();
  info.textContent = `frame ${k}: height ${range.min.toFixed(3)} … ${range.max.toFixed(3)} m`;
  wg.ready = true;
}

function play() {
  const s = look.shade;
  const rad = Math.PI / 180;
  const sun = new THREE.Vector3(
    Math.cos(s.sun_elevation * rad) * Math.cos(s.sun_azimuth * rad),
    Math.cos(s.sun_elevation * rad) * Math.sin(s.sun_azimuth * rad),
    Math.sin(s.sun_elevation * rad));
  const patch = new THREE.Vector2(manifest.patch_size_m[0], manifest.patch_size_m[1]);

  // Frames k and k + 1 of normal_foam copied out of the atlas into
  // repeating, mipmapped textures: the filtered mean normal (and Toksvig's
  // glint widening, as the runtime does) keeps a far sea from sparkling.
  const copy = rawMaterial(fullscreenVertex, `
uniform sampler2D u_nf;
uniform ivec2 u_tile;
uniform int u_cols;
uniform int u_frame;
out vec4 o_colour;
void main ()
{
  ivec2 t = ivec2 (u_frame % u_cols, u_frame / u_cols) * u_tile + ivec2 (gl_FragCoord.xy);
  o_colour = texelFetch (u_nf, t, 0);
}
`, { u_nf: { value: nfAtlas }, u_tile: common.u_tile, u_cols: common.u_cols, u_frame: { value: 0 } });
  const copyScene = new THREE.Scene();
  copyScene.add(new THREE.Mesh(quad, copy));
  const frameTargets = [0, 1].map(() => {
    const rt = new THREE.WebGLRenderTarget(nf.atlas_layout.tile_width, nf.atlas_layout.tile_height, {
      wrapS: THREE.RepeatWrapping, wrapT: THREE.RepeatWrapping,
      minFilter: THREE.LinearMipmapLinearFilter, magFilter: THREE.LinearFilter,
      generateMipmaps: true, depthBuffer: false, anisotropy: 8,
    });
    rt.frame = -1;
    return rt;
  });
  function loadFrame(rt, k) {
    if (rt.frame === k)
      return;
    copy.uniforms.u_frame.value = k;
    renderer.setRenderTarget(rt);
    renderer.render(copyScene, screenCamera);
    renderer.setRenderTarget(null);
    rt.frame = k;
  }

  const tone = { exponential: 0, aces: 1, none: 2 }[s.tone_mapping] ?? 0;
  const lookUniforms = {
    u_sun: { value: new THREE.Vector4(sun.x, sun.y, sun.z, s.sun_intensity) },
    u_optics: { value: new THREE.Vector4(s.ior, look.fresnel_alpha, s.scattering, 2 ** s.exposure) },
    u_fresnel: { value: s.fresnel === 'approximation' ? 1 : 0 },
    u_tone: { value: tone },
    u_absorption: { value: new THREE.Vector3(s.absorption_r, s.absorption_g, s.absorption_b) },
    u_bottom: { value: new THREE.Vector3(s.bottom_r, s.bottom_g, s.bottom_b) },
    u_foam_colour: { value: new THREE.Vector3(s.foam_r, s.foam_g, s.foam_b) },
    u_water: { value: new THREE.Vector3(s.water_r, s.water_g, s.water_b) },
    u_distances: { value: new THREE.Vector4(s.fade_start, s.detail_distance, s.haze_distance, s.crest_height) },
    u_eye: { value: new THREE.Vector3() },
  };
  const lookGlsl = `
uniform vec4 u_sun;       /* direction, intensity */
uniform vec4 u_optics;    /* ior, Fresnel alpha, crest scattering, exposure (linear) */
uniform int u_fresnel;
uniform int u_tone;
uniform vec3 u_absorption, u_bottom, u_foam_colour, u_water;
uniform vec4 u_distances; /* fade start, detail distance, haze distance, crest height (m) */
uniform vec3 u_eye;
${shading}
/* surface-shade's detail fade: 1 up to the fade start, 0 from the detail
 * distance on, a smoothstep between. */
float detail (float dist)
{
  float t = clamp ((dist - u_distances.x) / max (u_distances.y - u_distances.x, 1e-3), 0.0, 1.0);
  return 1.0 - t * t * (3.0 - 2.0 * t);
}
vec3 display (vec3 c, vec3 dir, float dist)
{
  vec3 haze = wg_sky (normalize (vec3 (dir.xy, 0.02)), u_sun.xyz);
  return wg_display_encode (wg_shade_finish (c, haze, dist, u_distances.z, u_optics.w, u_tone));
}
`;

  // The sea: one grid of 256² vertices centred under the eye, a vertex per
  // texel (or two) within 64 steps of the centre, each step beyond wider by
  // a ratio that takes the edge to the detail distance (at least 8
  // patches); a flat ring beyond it out to the horizon. It moves with the
  // eye in whole core steps, so that the core's vertices stay on texels.
  const half = 128, core = 64;
  const texel = patch.x / tile[0];
  const spacing = texel * Math.max(1, Math.ceil(tile[0] / 256));
  const edge = Math.max(s.detail_distance, 8 * patch.x, core * spacing * 2);
  const extent = (r) => core * spacing + spacing * r * (r ** (half - core) - 1) / (r - 1);
  let lo = 1 + 1e-6, hi = 2;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (extent(mid) < edge)
      lo = mid;
    else
      hi = mid;
  }
  const growth = (lo + hi) / 2;
  const gridEdge = extent(growth);
  const sea = new THREE.PlaneGeometry(2, 2, 2 * half, 2 * half);
  const seaUniforms = {
    ...common, ...lookUniforms,
    u_frames: { value: new THREE.Vector3(0, 0, 0) },
    u_patch: { value: patch },
    u_grid: { value: new THREE.Vector4(half, core, spacing, growth) },
    u_skirt: { value: 0 },
    u_nf0: { value: frameTargets[0].texture },
    u_nf1: { value: frameTargets[1].texture },
  };
  const seaVertex = atlasGlsl + `
in vec3 position;
uniform mat4 modelMatrix, viewMatrix, projectionMatrix;
uniform vec3 u_frames;    /* k, k + 1, weight of k + 1 */
uniform vec2 u_patch;
uniform vec4 u_grid;      /* half the steps a side, core steps, core spacing (m), growth */
uniform int u_skirt;
out vec2 v_rest;
out vec3 v_world;

/* Where grid coordinate @s (-1 ... 1) lies (m from the centre), and the
 * spacing of the vertices there. */
float grid_coord (float s, out float spacing)
{
  float i = abs (s * u_grid.x);
  float n = max (i - u_grid.y, 0.0);
  float grown = pow (u_grid.w, n);
  spacing = u_grid.z * grown;
  return sign (s) * (min (i, u_grid.y) * u_grid.z
                     + u_grid.z * u_grid.w * (grown - 1.0) / (u_grid.w - 1.0));
}

/* The displacement of frame @k at @x (m), bilinear between the texels at
 * (i, j) * patch / tile, wrapped. */
vec3 disp_at (int k, vec2 x)
{
  vec2 t = x / u_patch * vec2 (u_tile);
  vec2 f = floor (t), a = t - f;
  ivec2 i = ivec2 (f);
  return mix (mix (disp_texel (k, i).xyz, disp_texel (k, i + ivec2 (1, 0)).xyz, a.x),
              mix (disp_texel (k, i + ivec2 (0, 1)).xyz, disp_texel (k, i + ivec2 (1, 1)).xyz, a.x),
              a.y);
}

void main ()
{
  vec3 d = vec3 (0.0);
  vec3 rest;
  if (u_skirt == 0)
    {
      float sx, sy;
      rest = (modelMatrix * vec4 (grid_coord (position.x, sx), grid_coord (position.y, sy), 0.0, 1.0)).xyz;
      d = mix (disp_at (int (u_frames.x), rest.xy), disp_at (int (u_frames.y), rest.xy), u_frames.z);
      /* Where vertices are several texels apart they would alias (and
       * swim as the grid follows the eye): the waves there are flat, the
       * normals carry them. */
      vec2 texel = u_patch / vec2 (u_tile);
      d *= 1.0 - smoothstep (2.0, 8.0, max (sx, sy) / min (texel.x, texel.y));
    }
  else
    rest = (modelMatrix * vec4 (position, 1.0)).xyz;
  v_rest = rest.xy;
  v_world = rest + d;
  gl_Position = projectionMatrix * viewMatrix * vec4 (v_world, 1.0);
}
`;
  const seaFragment = lookGlsl + `
uniform sampler2D u_nf0, u_nf1;
uniform vec3 u_frames;
uniform vec2 u_patch;
uniform ivec2 u_tile;
in vec2 v_rest;
in vec3 v_world;
out vec4 o_colour;
void main ()
{
  float k = detail (distance (v_rest, u_eye.xy));
  vec3 n = vec3 (0.0, 0.0, 1.0);
  float foam = 0.0;
  if (k > 0.0)
    {
      vec2 uv = v_rest / u_patch + 0.5 / vec2 (u_tile);
      vec4 m = mix (texture (u_nf0, uv), texture (u_nf1, uv), u_frames.z);
      /* The 8-bit normals' own length, so that only their spread (the
       * filtered mean) widens the glint. */
      vec4 m0 = mix (textureLod (u_nf0, uv, 0.0), textureLod (u_nf1, uv, 0.0), u_frames.z);
      vec3 mean = m.xyz * 2.0 - 1.0;
      float unit = length (m0.xyz * 2.0 - 1.0);
      n = mix (n, mean / max (unit, 1e-3), k);
      foam = k * m.a;
    }
  vec3 v = normalize (u_eye - v_world);
  WgShading s = WgShading (u_sun.xyz, u_sun.w, u_optics.x, u_fresnel, u_optics.y, u_absorption,
                           u_bottom, u_foam_colour, u_water, u_optics.z);
  /* (WebGL refuses ?: between structures.) */
  WgSurfacePoint p;
  if (k > 0.0)
    p = wg_surface_point_filtered (n, v);
  else
    p = wg_surface_point (n, v);
  float crest = clamp (0.5 + 0.5 * v_world.z / u_distances.w, 0.0, 1.0);
  vec3 c = wg_shade_surface_sky (p, v, s, wg_sky (p.r, u_sun.xyz), foam, crest, WG_INFINITY);
  float dist = distance (u_eye, v_world);
  o_colour = vec4 (display (c, -v, dist), 1.0);
}
`;
  const seaMaterial = rawMaterial(seaVertex, seaFragment, seaUniforms);
  const seaMesh = new THREE.Mesh(sea, seaMaterial);
  seaMesh.frustumCulled = false;
  // The ring: the same shading on flat water, its four quads from the
  // grid's edge to 40 km.
  const far = 40000;
  const ring = new THREE.BufferGeometry();
  const corners = [[-1, -1], [1, -1], [1, 1], [-1, 1]];
  const ringPositions = [];
  for (let c = 0; c < 4; c++) {
    const [a, b] = [corners[c], corners[(c + 1) % 4]];
    const quadPoints = [[a[0] * gridEdge, a[1] * gridEdge], [b[0] * gridEdge, b[1] * gridEdge],
                        [b[0] * far, b[1] * far], [a[0] * far, a[1] * far]];
    for (const i of [0, 1, 2, 0, 2, 3])
      ringPositions.push(quadPoints[i][0], quadPoints[i][1], 0);
  }
  ring.setAttribute('position', new THREE.Float32BufferAttribute(ringPositions, 3));
  const ringMaterial = rawMaterial(seaVertex, seaFragment, { ...seaUniforms, u_skirt: { value: 1 } });
  const ringMesh = new THREE.Mesh(ring, ringMaterial);
  ringMesh.frustumCulled = false;
  const seaGroup = new THREE.Group();
  seaGroup.add(seaMesh, ringMesh);

  // The sky behind everything: wg_sky() along each pixel's ray.
  const skyMaterial = rawMaterial(`
in vec3 position;
uniform mat4 u_inverse;   /* clip → world */
out vec3 v_far;
void main ()
{
  vec4 p = u_inverse * vec4 (position.xy, 1.0, 1.0);
  v_far = p.xyz / p.w;
  gl_Position = vec4 (position.xy, 1.0, 1.0);
}
`, lookGlsl + `
in vec3 v_far;
out vec4 o_colour;
void main ()
{
  vec3 dir = normalize (v_far - u_eye);
  o_colour = vec4 (wg_display_encode (wg_tone_map (wg_sky (dir, u_sun.xyz) * u_optics.w, u_tone)), 1.0);
}
`, { ...lookUniforms, u_inverse: { value: new THREE.Matrix4() } }, { depthTest: false, depthWrite: false });
  const skyMesh = new THREE.Mesh(quad, skyMaterial);
  skyMesh.frustumCulled = false;
  skyMesh.renderOrder = -1;

  const scene = new THREE.Scene();
  scene.add(skyMesh, seaGroup);

  // The graph's surface-shade camera to start with, then the orbit's.
  const camera = new THREE.PerspectiveCamera(s.fov, 1, 0.1, far * 1.5);
  camera.up.set(0, 0, 1);
  const eye = new THREE.Vector3(s.camera_x, s.camera_y, Math.max(s.camera_z, 0.5));
  let target;
  if (s.aim === 'target') {
    target = new THREE.Vector3(s.target_x, s.target_y, s.target_z);
  } else {
    const f = new THREE.Vector3(Math.cos(s.pitch * rad) * Math.cos(s.yaw * rad),
                                Math.cos(s.pitch * rad) * Math.sin(s.yaw * rad), Math.sin(s.pitch * rad));
    const reach = f.z < -0.01 ? Math.min(-eye.z / f.z, 200) : 50;
    target = eye.clone().addScaledVector(f, reach);
  }
  camera.position.copy(eye);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.copy(target);
  controls.maxPolarAngle = Math.PI / 2 - 0.02;
  controls.minDistance = 2;
  controls.maxDistance = 2000;
  controls.enableDamping = true;
  controls.update();

  function resize() {
    renderer.setSize(window.innerWidth, window.innerHeight);
    camera.aspect = window.innerWidth / window.innerHeight;
    camera.updateProjectionMatrix();
  }
  window.addEventListener('resize', resize);
  resize();

  // ?frame=N holds frame N: drawn when the view changes, no animation.
  const still = query.has('frame') ? Number(query.get('frame')) : null;
  if (still !== null && !(Number.isInteger(still) && still >= 0 && still < nFrames))
    throw new Error(`frame=${query.get('frame')}: expected 0 … ${nFrames - 1}`);
  const start = performance.now();
  const looping = manifest.seamless_loop;
  function draw(now) {
    controls.update();
    const f = still ?? ((now - start) / 1000) * manifest.frame_rate;
    const k0 = Math.floor(f) % nFrames;
    const k1 = looping || k0 + 1 < nFrames ? (k0 + 1) % nFrames : k0;
    const blend = f - Math.floor(f);
    // Two targets reused: the one holding k0 keeps it.
    if (frameTargets[1].frame === k0)
      frameTargets.reverse();
    loadFrame(frameTargets[0], k0);
    loadFrame(frameTargets[1], k1);
    for (const m of [seaMaterial, ringMaterial]) {
      m.uniforms.u_frames.value.set(k0, k1, blend);
      m.uniforms.u_nf0.value = frameTargets[0].texture;
      m.uniforms.u_nf1.value = frameTargets[1].texture;
    }
    seaGroup.position.set(Math.round(camera.position.x / spacing) * spacing,
                          Math.round(camera.position.y / spacing) * spacing, 0);
    lookUniforms.u_eye.value.copy(camera.position);
    camera.updateMatrixWorld();
    skyMaterial.uniforms.u_inverse.value
      .multiplyMatrices(camera.matrixWorld, camera.projectionMatrixInverse);
    renderer.render(scene, camera);
    info.textContent = `frame ${k0} of ${nFrames} · ${manifest.frame_rate} fps · ` +
      `${patch.x} m patch · ${manifest.graph}`;
  }
  wg.render = () => draw(performance.now());
  if (still !== null) {
    controls.enableDamping = false;
    controls.addEventListener('change', wg.render);
    window.addEventListener('resize', wg.render);
    wg.render();
    wg.ready = true;
  } else {
    renderer.setAnimationLoop((now) => {
      draw(now);
      wg.ready = true;
    });
  }
}
