// web-player.mjs MODE NPM_PREFIX PACKAGE [ARG] — opens an export package's
// web player (web/index.html) in Debian's headless Chromium through npm
// playwright-core (under NPM_PREFIX), the package served by a python3
// http.server this script starts on a free port and stops by its PID.
//
//   check PREFIX PKG EXR_DUMP   (tests/test-web-player.sh) fails unless the
//     manifest lists format "web", the page loads with no console error, WebGL warning, page error or failed
//     request; its canvas is not blank; and the height debug view of frames
//     1 and 3 shows, texel for texel, the heights of
//     displacement/displacement.000N.exr as EXR_DUMP reads them, within 2%
//     of the manifest's height range (and not those of the other frame).
//   screenshot PREFIX PKG OUT.png  the player at 960×540 (docs/web-player.png).
//   bench PREFIX PKG              ms per frame over 120 frames, $WG_BENCH_FRAMES
//     to change (bench/wg-bench-web.sh).
import { spawn, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [mode, prefix, pkg, arg] = process.argv.slice(2);
if (!['check', 'screenshot', 'bench'].includes(mode) || !prefix || !pkg) {
  console.error('usage: web-player.mjs check|screenshot|bench NPM_PREFIX PACKAGE [EXR_DUMP|OUT.png]');
  process.exit(2);
}
const { chromium } = createRequire(resolve(prefix, 'node_modules') + '/')('playwright-core');
const manifest = JSON.parse(readFileSync(join(pkg, 'manifest.json'), 'utf8'));
const failures = [];
const fail = (msg) => { failures.push(msg); console.log(`FAIL: ${msg}`); };

// The server prints its port once it listens.
const server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', pkg],
                     { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve, reject) => {
  let text = '';
  server.stdout.on('data', (d) => {
    text += d;
    const m = /port (\d+)/.exec(text);
    if (m)
      resolve(Number(m[1]));
  });
  server.on('exit', (code) => reject(new Error(`http.server exited (${code}) before listening`)));
});
server.stdout.resume();

// SwiftShader's WebGL2 (software GL): what CI has, and no GPU needed.
const browser = await chromium.launch({
  executablePath: process.env.WAVEGRAPH_CHROMIUM || '/usr/bin/chromium',
  args: ['--headless=new', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
         '--disable-gpu-vsync', '--disable-frame-rate-limit'],
});

// Opens web/index.html?@query and waits for the player's first frame; every
// console error or WebGL warning (but the driver's performance notes), page
// error and failed request fails.
async function open(query, viewport = { width: 960, height: 540 }) {
  console.log(`${(performance.now() / 1000).toFixed(1)} s: open ${query}`);
  const page = await browser.newPage({ viewport });
  const where = `index.html${query}`;
  page.on('console', (m) => {
    // The GL driver's performance notes are not the player's fault: "GPU
    // stall due to ReadPixels" comes from this test's own readPixels, and
    // only when the read happens to wait on the GPU.
    if (/GL Driver Message \([^,]*, Performance,/.test(m.text()))
      return;
    if (m.type() === 'error' || (m.type() === 'warning' && /WebGL|THREE/.test(m.text())))
      fail(`${where}: console ${m.type()}: ${m.text().slice(0, 2000)}`);
  });
  page.on('pageerror', (e) => fail(`${where}: page error: ${e.message}`));
  page.on('requestfailed', (r) => fail(`${where}: ${r.url()}: ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) fail(`${where}: ${r.url()}: HTTP ${r.status()}`); });
  await page.goto(`http://127.0.0.1:${port}/web/${where}`);
  await page.waitForFunction(() => window.wg?.ready || null, null, { timeout: 120000 });
  console.log(`${(performance.now() / 1000).toFixed(1)} s: ready`);
  return page;
}

// Renders a frame and reads the canvas back (RGBA, GL rows: bottom first)
// in the page; returns @reduce's result there (the pixels are megabytes).
function readCanvas(page, reduce, arg) {
  return page.evaluate(([reduceText, a]) => {
    const gl = window.wg.renderer.getContext();
    window.wg.render();
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    return (0, eval)(reduceText)(w, h, px, a);
  }, [reduce.toString(), arg]);
}

// Frame @k's heights (m), rows from y = 0, as exr-dump reads the file.
function referenceHeights(exrDump, k) {
  const file = join(pkg, manifest.maps.displacement.frames.replace('%04d', String(k).padStart(4, '0')));
  const words = execFileSync(exrDump, [file, 'B'], { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
  return { w: words[0], h: words[1], z: words.slice(2) };
}

async function check(exrDump) {
  if (!manifest.formats?.includes('web'))
    fail(`manifest.json: formats ${JSON.stringify(manifest.formats)} lacks "web"`);
  const page = await open('', { width: 480, height: 270 });
  const { w, h, sum, sum2 } = await readCanvas(page, (w, h, px) => {
    let sum = 0, sum2 = 0;
    for (let i = 0; i < w * h; i++) {
      const y = 0.2126 * px[4 * i] + 0.7152 * px[4 * i + 1] + 0.0722 * px[4 * i + 2];
      sum += y;
      sum2 += y * y;
    }
    return { w, h, sum, sum2 };
  });
  const mean = sum / (w * h), sd = Math.sqrt(Math.max(sum2 / (w * h) - mean * mean, 0));
  console.log(`player ${w}×${h}: luma mean ${mean.toFixed(1)}, standard deviation ${sd.toFixed(1)} (of 255)`);
  if (!(sd > 4 && mean > 10))
    fail(`the player's canvas is blank (luma mean ${mean}, sd ${sd})`);
  await page.close();

  const range = manifest.maps.displacement.channels[2];
  const frames = [1, 3];
  const refs = frames.map((k) => referenceHeights(exrDump, k));
  for (const [n, k] of frames.entries()) {
    const debug = await open(`?debug=height&frame=${k}`);
    const scale = await debug.evaluate(() => window.wg.scale);
    const { w: tw, h: th } = refs[n];
    // Every texel's centre pixel (red); GL row y is patch row y / scale.
    const c = await readCanvas(debug, (w, h, px, s) => {
      const red = [];
      for (let y = s >> 1; y < h; y += s)
        for (let x = s >> 1; x < w; x += s)
          red.push(px[4 * (y * w + x)]);
      return { w, h, red };
    }, scale);
    if (c.w !== tw * scale || c.h !== th * scale)
      fail(`frame ${k}: canvas ${c.w}×${c.h}, expected ${tw}×${th} texels of ${scale} px`);
    const worst = [0, 0];
    for (let j = 0; j < th; j++)
      for (let i = 0; i < tw; i++) {
        const grey = c.red[j * tw + i] / 255;
        for (const [m, ref] of refs.entries()) {
          const want = (ref.z[j * tw + i] - range.min) / (range.max - range.min);
          worst[m] = Math.max(worst[m], Math.abs(grey - want));
        }
      }
    console.log(`frame ${k}: ${tw}×${th} texels; largest difference from the EXR's frame ` +
                `${k} ${(100 * worst[n]).toFixed(2)}% of the height range, from frame ` +
                `${frames[1 - n]} ${(100 * worst[1 - n]).toFixed(2)}%`);
    if (!(worst[n] <= 0.02))
      fail(`frame ${k}: the debug view differs from displacement frame ${k} by ${(100 * worst[n]).toFixed(2)}% > 2%`);
    if (!(worst[1 - n] > 0.02))
      fail(`frame ${k}: the debug view also matches frame ${frames[1 - n]}: the probe cannot tell frames apart`);
    await debug.close();
  }
}

async function screenshot(out) {
  // A still frame: a page busy drawing in software GL is not captured.
  const page = await open('?frame=10');
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
}

async function bench() {
  const page = await open('');
  const n = Number(process.env.WG_BENCH_FRAMES || 120);
  // Each frame's drawing is waited for (a one-pixel readPixels after the
  // player's own requestAnimationFrame callback): otherwise the timestamps
  // tick on while the GPU process queues frames it has not drawn.
  const r = await page.evaluate(async (n) => {
    const gl = window.wg.renderer.getContext();
    const one = new Uint8Array(4);
    const stamps = [];
    await new Promise((resolve) => {
      const tick = (t) => {
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, one);
        stamps.push(t);
        if (stamps.length <= n)
          requestAnimationFrame(tick);
        else
          resolve();
      };
      requestAnimationFrame(tick);
    });
    const intervals = stamps.slice(1).map((t, i) => t - stamps[i]).sort((a, b) => a - b);
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return { mean: (stamps[n] - stamps[0]) / n, median: intervals[n >> 1],
             min: intervals[0], max: intervals[n - 1],
             renderer: gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER),
             w: gl.drawingBufferWidth, h: gl.drawingBufferHeight };
  }, n);
  const f = (v) => v.toFixed(1).padStart(8);
  console.log(`${manifest.graph} ${manifest.maps.displacement.width}² texels, ${r.w}×${r.h}, ` +
              `${n} frames, ${r.renderer}`);
  console.log('    mean  median     min     max  (ms/frame)');
  console.log(`${f(r.mean)}${f(r.median)}${f(r.min)}${f(r.max)}`);
}

try {
  if (mode === 'check')
    await check(arg);
  else if (mode === 'screenshot')
    await screenshot(arg);
  else
    await bench();
} catch (e) {
  fail(e.stack || String(e));
} finally {
  await browser.close();
  server.kill();
}
process.exit(failures.length ? 1 : 0);
