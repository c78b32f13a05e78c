// The gallery of `convert -r --gallery` in a real browser (Debian's headless Chromium, WebGL through
// SwiftShader, driven by playwright-core): OUTDIR served on 127.0.0.1, index.html lists every model
// the report holds with the counts read here from each glb's own JSON, and every viewer page loads
// its model with no console error, lists every clip of the glb, draws a non-blank canvas, and each
// clip with KHR_animation_pointer channels has a track per channel and changes a material value.
// Usage: node gallery_browser.mjs OUTDIR   (exit 0 when all holds; each failure on stderr)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { serveDirectory, launchChromium, openPage as openPageIn, glbJson } from './browser_lib.mjs';

const root = path.resolve(process.argv[2] ?? '');
let failures = 0;
const fail = (what) => { failures++; console.error(`FAIL: ${what}`); };
const check = (what, got, want) => {
  const g = JSON.stringify(got), w = JSON.stringify(want);
  if (g !== w) fail(`${what}: got ${g}, want ${w}`);
};

// ---- the expected: the report's models, and each glb's JSON read here ----

// The counts as the gallery states them, computed from the glTF: triangles of every mesh (each
// mesh once, as the scene holds it), distinct joint nodes of the skins, clips, textures.
function countsOf(doc) {
  let triangles = 0;
  for (const mesh of doc.meshes ?? [])
    for (const p of mesh.primitives)
      triangles += Math.floor((p.indices !== undefined ? doc.accessors[p.indices].count : doc.accessors[p.attributes.POSITION].count) / 3);
  const joints = new Set((doc.skins ?? []).flatMap((s) => s.joints)).size;
  return { triangles, joints, clips: (doc.animations ?? []).length, textures: (doc.textures ?? []).length };
}

const report = JSON.parse(readFileSync(path.join(root, 'unearth-batch.json'), 'utf8'));
const models = report.records.filter((r) => r.kind === 'model' && (r.status === 'converted' || r.status === 'kept'));
if (!models.length) fail('the report lists no converted model');
// cli_gallery_browser.sh adds a model whose output name keeps a '#': its viewer page must load too.
if (!models.some((m) => m.output.includes('#'))) fail('no model with a \'#\' in its output name');
for (const m of models) {
  m.doc = glbJson(readFileSync(path.join(root, m.output)), m.output);
  m.pointerClips = (m.doc.animations ?? []).map((a, i) => ({
    index: i, name: a.name, channels: a.channels.length, fps: a.extras?.fps > 0 ? a.extras.fps : 30,
    duration: Math.max(0, ...a.channels.map((c) => m.doc.accessors[a.samplers[c.sampler].input].max?.[0] ?? 0)),
    pointers: a.channels.filter((c) => c.target.path === 'pointer').length,
  }));
}

// The robot's clips are keyed at rates other than 60 fps (30, 1000): the slider must follow them.
if (!models.some((m) => m.pointerClips.some((c) => c.fps !== 60))) fail('no clip at a rate other than 60 fps');

// ---- OUTDIR served on 127.0.0.1, and the browser ----

const server = await serveDirectory(root);
const base = server.base;
const browser = await launchChromium();
const openPage = (url) => openPageIn(browser, url);

try {
  // ---- index.html: every model, its counts, its link to the viewer ----
  const { page: index, errors: indexErrors } = await openPage(base + 'index.html');
  const cards = await index.$$eval('li.model', (lis) => lis.map((li) => ({
    name: li.dataset.name,
    href: li.querySelector('a').getAttribute('href'),
    source: li.querySelector('.source').textContent,
    counts: li.querySelector('.counts')?.textContent ?? null,
    thumbnail: li.querySelector('img')?.getAttribute('src') ?? null,
  })));
  check('index.html: models listed, in the report\'s order', cards.map((c) => c.source), models.map((m) => m.input));
  models.forEach((m, i) => {
    const c = cards[i];
    if (!c) return;
    const n = countsOf(m.doc);
    check(`${m.input}: counts`, c.counts, `${n.triangles} triangles, ${n.joints} joints, ${n.clips} clips, ${n.textures} textures`);
    // The link, decoded as the viewer decodes it, names the glb ('#', '&', quotes percent-encoded).
    const [page, query] = c.href.split('?');
    check(`${m.input}: viewer link`, [page, new URLSearchParams(query).get('m'), /[#&'"]/.test(query.slice(2))],
      ['unearth-viewer/viewer.html', m.output, false]);
  });
  // The live filter box (the script's enhancement) hides what does not match.
  const first = cards[0]?.name ?? '';
  await index.fill('#filter', first);
  const shown = await index.$$eval('li.model', (lis) => lis.filter((li) => !li.hidden).map((li) => li.dataset.name));
  check('filter box: the models shown', shown, cards.filter((c) => c.name.toLowerCase().includes(first.toLowerCase())).map((c) => c.name));
  check('index.html: console errors', indexErrors, []);
  await index.close();

  // ---- index.html from disk with scripts off: the letters filter by CSS alone ----
  const noScript = await browser.newContext({ javaScriptEnabled: false });
  try {
    const plain = await noScript.newPage();
    await plain.goto(pathToFileURL(path.join(root, 'index.html')).href);
    check('index.html without a script: no filter box', await plain.$$eval('#filter', (f) => f.length), 0);
    const visible = () => plain.$$eval('li.model', (lis) => lis.filter((li) => li.checkVisibility()).map((li) => li.dataset.name));
    // A letter some models start with and others do not, from the names read above.
    const letterOf = (name) => (/^[a-z]/i.test(name) ? name[0].toUpperCase() : '0');
    const letters = [...new Set(cards.map((c) => letterOf(c.name)))];
    if (letters.length < 2) fail(`index.html: every model under one letter (${letters}): the filter is not tried`);
    for (const letter of letters) {
      await plain.click(`#l-${letter}`);
      check(`index.html without a script: letter ${letter} shows`, await visible(),
        cards.filter((c) => letterOf(c.name) === letter).map((c) => c.name));
    }
    await plain.click('.letters a[href="#"]');
    check('index.html without a script: "all" shows', await visible(), cards.map((c) => c.name));
  } finally {
    await noScript.close();
  }

  // ---- every viewer page ----
  for (const [i, m] of models.entries()) {
    const { page, errors } = await openPage(base + (cards[i]?.href ?? ''));
    await page.waitForFunction(() => window.unearthViewer && window.unearthViewer.status !== 'loading', null, { timeout: 60000 });
    const status = await page.evaluate(() => [window.unearthViewer.status, window.unearthViewer.error]);
    check(`${m.input}: viewer status`, status, ['ready', null]);
    if (status[0] !== 'ready') { await page.close(); continue; }
    check(`${m.input}: clips listed`, await page.evaluate(() => window.unearthViewer.clips), m.pointerClips.map((c) => c.name));
    check(`${m.input}: clip buttons`, await page.$$eval('#clips button', (b) => b.length), m.pointerClips.length);
    // The slider counts the clip's own frames, as `preview --frame` does: duration × extras.fps
    // (30 without one), the duration read here from the samplers' input accessors.
    const sliderMax = await page.evaluate((n) => [...Array(n).keys()].map((k) => {
      window.unearthViewer.select(k);
      return Number(document.getElementById('time').max);
    }), m.pointerClips.length);
    check(`${m.input}: slider frames per clip`, sliderMax, m.pointerClips.map((c) => Math.max(1, Math.round(c.duration * c.fps))));
    // Every channel becomes a track, pointer channels too (three.js's loader alone drops those);
    // a material the loader copied per mesh (skinned, vertex colours) gets a track per copy.
    const tracks = await page.evaluate(() => window.unearthViewer.gltf.animations.map((a) => a.tracks.length));
    m.pointerClips.forEach((c, k) => {
      if (!(tracks[k] >= c.channels)) fail(`${m.input}: clip ${c.name}: ${tracks[k]} tracks for ${c.channels} channels (${c.pointers} pointer)`);
    });
    // The canvas, read back: pixels other than the clear colour (0x303030).
    const drawn = await page.evaluate(() => {
      const v = window.unearthViewer;
      v.render();
      const gl = v.renderer.getContext();
      const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight, px = new Uint8Array(w * h * 4);
      gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
      let other = 0;
      for (let k = 0; k < px.length; k += 4) if (px[k] !== 0x30 || px[k + 1] !== 0x30 || px[k + 2] !== 0x30) other++;
      return { other, total: w * h };
    });
    if (!(drawn.other > drawn.total / 100)) fail(`${m.input}: blank canvas (${drawn.other} of ${drawn.total} pixels drawn)`);
    // Each clip with pointer channels, shown at several times: some material value changes.
    for (const clip of m.pointerClips.filter((c) => c.pointers > 0)) {
      const samples = await page.evaluate((index) => {
        const v = window.unearthViewer;
        v.select(index);
        const duration = v.gltf.animations[index].duration;
        const snapshot = () => {
          const values = [];
          v.scene.traverse((o) => {
            for (const mat of [].concat(o.material ?? [])) {
              values.push(mat.color?.toArray(), mat.opacity, mat.map?.offset.toArray(), mat.map?.repeat.toArray());
            }
          });
          return JSON.stringify(values);
        };
        return [0, 0.25, 0.5, 0.75, 1].map((f) => { v.setTime(f * duration); return snapshot(); });
      }, clip.index);
      if (new Set(samples).size < 2) fail(`${m.input}: clip ${clip.name} (${clip.pointers} pointer channels) changes no material value`);
    }
    // Play and pause: time moves while playing, stands while paused.
    if (m.pointerClips.length) {
      await page.click('#play');
      await page.waitForTimeout(300);
      await page.click('#play');
      const t1 = await page.evaluate(() => window.unearthViewer.action.time);
      await page.waitForTimeout(200);
      const t2 = await page.evaluate(() => window.unearthViewer.action.time);
      if (!(t1 > 0)) fail(`${m.input}: play did not advance the clip (time ${t1})`);
      check(`${m.input}: paused clip time`, t2, t1);
    }
    check(`${m.input}: console errors`, errors, []);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`gallery_browser: ${models.length} models, ${failures} failures`);
process.exit(failures ? 1 : 0);
