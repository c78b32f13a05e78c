// unearth's software previews against a real renderer: for every model of a gallery OUTDIR (the
// glb `convert -r --gallery` wrote) and every view, `unearth preview GLB --view V -v` draws the
// model and states its camera; three.js in headless Chromium (WebGL through SwiftShader) draws the
// same glb, with its own loader's materials (alpha modes, cut-outs, sides), from that orthographic
// camera at the same size. The silhouettes (alpha > 0) must agree: intersection over union ≥ 0.97.
// Usage: node preview_crosscheck.mjs UNEARTH OUTDIR   (prints the IoU of each model × view; exit 1 below)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveDirectory, launchChromium, openPage } from './browser_lib.mjs';

const [unearth, outdir] = process.argv.slice(2);
const root = path.resolve(outdir ?? '');
const VIEWS = ['front', 'back', 'left', 'right', 'top', 'iso'];
const MIN_IOU = 0.97;

// Each view of each model, drawn by unearth, with the camera its -v line states.
function previewOf(glb, view) {
  const png = path.join(root, 'crosscheck', `${glb.replaceAll('/', '_')}.${view}.png`);
  const run = spawnSync(unearth, ['preview', path.join(root, glb), '-o', png, '--view', view, '-v', '-f'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`unearth preview ${glb} --view ${view}: exit ${run.status}: ${run.stderr}`);
  const line = run.stderr.split('\n').find((l) => l.startsWith('preview: camera of '));
  if (!line) throw new Error(`unearth preview -v stated no camera for ${glb}`);
  return { png, camera: JSON.parse(line.slice(line.indexOf('{'))) };
}

// The page three.js draws in: the viewer's copy of three (OUTDIR/unearth-viewer), a renderer
// without anti-aliasing on a transparent clear, and silhouette(glb, camera, png) returning both masks' counts.
const PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,">
<script type="importmap">{"imports": {
  "three": "/unearth-viewer/node_modules/three/build/three.module.js",
  "three/addons/": "/unearth-viewer/node_modules/three/examples/jsm/",
  "@needle-tools/three-animation-pointer": "/unearth-viewer/node_modules/@needle-tools/three-animation-pointer/src/index.js"
}}</script></head><body><script type="module">
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { GLTFAnimationPointerExtension } from '@needle-tools/three-animation-pointer';
const renderer = new THREE.WebGLRenderer({ antialias: false, alpha: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setClearColor(0x000000, 0);
const loader = new GLTFLoader();
loader.register((parser) => new GLTFAnimationPointerExtension(parser));

// The camera of docs/preview.md: orthographic, extent wide and high, looking along forward at
// center, up as given; placed in front of the nearest bound, reaching past the farthest.
function cameraOf(c) {
  const h = c.extent / 2, margin = Math.max(1, c.extent);
  const camera = new THREE.OrthographicCamera(-h, h, h, -h, margin / 2, c.far - c.near + 1.5 * margin);
  const center = new THREE.Vector3(...c.center), forward = new THREE.Vector3(...c.forward);
  camera.position.copy(center).addScaledVector(forward, c.near - margin);
  camera.up.set(...c.up);
  camera.lookAt(center);
  camera.updateMatrixWorld();
  return camera;
}

// three.js's alpha, rows top to bottom.
function threeAlpha(gltf, c) {
  renderer.setSize(c.size, c.size, false);
  renderer.render(gltf.scene, cameraOf(c));
  const gl = renderer.getContext(), px = new Uint8Array(c.size * c.size * 4);
  gl.readPixels(0, 0, c.size, c.size, gl.RGBA, gl.UNSIGNED_BYTE, px);
  const alpha = new Uint8Array(c.size * c.size);
  for (let y = 0; y < c.size; y++)
    for (let x = 0; x < c.size; x++) alpha[y * c.size + x] = px[((c.size - 1 - y) * c.size + x) * 4 + 3];
  return alpha;
}

// unearth's PNG's alpha, unpremultiplied and unconverted.
async function pngAlpha(url, size) {
  const bitmap = await createImageBitmap(await (await fetch(url)).blob(), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  if (bitmap.width !== size || bitmap.height !== size) throw new Error(url + ': ' + bitmap.width + 'x' + bitmap.height);
  const ctx = new OffscreenCanvas(size, size).getContext('2d');
  ctx.drawImage(bitmap, 0, 0);
  const px = ctx.getImageData(0, 0, size, size).data, alpha = new Uint8Array(size * size);
  for (let i = 0; i < alpha.length; i++) alpha[i] = px[i * 4 + 3];
  return alpha;
}

const loaded = new Map();
window.silhouette = async (glb, c, png) => {
  if (!loaded.has(glb)) loaded.set(glb, await loader.loadAsync(glb));
  const a = threeAlpha(loaded.get(glb), c), b = await pngAlpha(png, c.size);
  let three = 0, ours = 0, both = 0, either = 0;
  for (let i = 0; i < a.length; i++) {
    const t = a[i] > 0, u = b[i] > 0;
    three += t; ours += u; both += t && u; either += t || u;
  }
  return { three, ours, both, either };
};
window.ready = true;
</script></body></html>`;

const report = JSON.parse(readFileSync(path.join(root, 'unearth-batch.json'), 'utf8'));
const models = report.records.filter((r) => r.kind === 'model' && (r.status === 'converted' || r.status === 'kept'));
mkdirSync(path.join(root, 'crosscheck'), { recursive: true });
const server = await serveDirectory(root, { '/crosscheck.html': PAGE });
const browser = await launchChromium();
let failures = models.length ? 0 : 1;
if (!models.length) console.error('FAIL: the report lists no converted model');
try {
  const { page, errors } = await openPage(browser, server.base + 'crosscheck.html');
  await page.waitForFunction(() => window.ready, null, { timeout: 60000 });
  for (const m of models) {
    for (const view of VIEWS) {
      const { png, camera } = previewOf(m.output, view);
      const url = (p) => '/' + path.relative(root, p).split(path.sep).map(encodeURIComponent).join('/');
      const s = await page.evaluate(([g, c, p]) => window.silhouette(g, c, p), [url(path.join(root, m.output)), camera, url(png)]);
      const iou = s.either ? s.both / s.either : 1;
      const ok = iou >= MIN_IOU && s.either > 0;
      if (!ok) failures++;
      console.log(`${ok ? 'ok  ' : 'FAIL'} ${m.input} ${view.padEnd(5)} IoU ${iou.toFixed(4)} (unearth ${s.ours} px, three.js ${s.three} px, both ${s.both})`);
    }
  }
  if (errors.length) { failures++; console.error(`FAIL: console errors: ${JSON.stringify(errors)}`); }
} finally {
  await browser.close();
  server.close();
}
console.log(`preview_crosscheck: ${models.length} models × ${VIEWS.length} views, ${failures} failures (IoU < ${MIN_IOU})`);
process.exit(failures ? 1 : 0);
