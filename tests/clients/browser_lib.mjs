// What the browser tests share: a read-only static server of one directory on 127.0.0.1 (an
// ephemeral port), Debian's headless Chromium with WebGL through SwiftShader, and pages that collect their errors.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.glb': 'model/gltf-binary', '.gltf': 'model/gltf+json',
  '.png': 'image/png', '.json': 'application/json', '.bin': 'application/octet-stream' };

// Serves `root` (GET only, nothing outside it; a directory gives its index.html) and `pages`, a
// map of URL paths to HTML held in memory. Resolves to { base, close }.
export async function serveDirectory(root, pages = {}) {
  const server = createServer(async (req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (req.method === 'GET' && Object.hasOwn(pages, rel)) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(pages[rel]);
      return;
    }
    const file = path.join(root, rel);
    try {
      if (req.method !== 'GET' || !(file === root || file.startsWith(root + path.sep))) throw new Error('refused');
      const st = await stat(file);
      const served = st.isDirectory() ? path.join(file, 'index.html') : file;
      const body = await readFile(served);
      res.writeHead(200, { 'content-type': TYPES[path.extname(served)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() };
}

// Headless Chromium ($UE_CHROMIUM, else /usr/bin/chromium) with WebGL on SwiftShader: the only
// flags under which Debian's build gives WebGL without a GPU.
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.UE_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless=new', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox'],
  });
}

// A page at `url` whose console errors, page errors, failed requests and HTTP errors gather in `errors`.
export async function openPage(browser, url, viewport = { width: 800, height: 600 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`request failed: ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) errors.push(`HTTP ${r.status()}: ${r.url()}`); });
  await page.goto(url);
  return { page, errors };
}

// The JSON chunk of a GLB file's bytes.
export function glbJson(bytes, name = 'GLB') {
  if (bytes.readUInt32LE(0) !== 0x46546c67) throw new Error(`${name}: not a GLB`);
  return JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString('utf8'));
}
