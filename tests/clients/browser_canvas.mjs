// The browser facilities three.js's GLTFLoader and GLTFExporter use for images, given to Node by
// Skia (npm @napi-rs/canvas): createImageBitmap/ImageBitmap (a decoded PNG), OffscreenCanvas with
// convertToBlob, HTMLCanvasElement, ImageData, FileReader over Blobs, and fetch of file: URLs (a .gltf's .bin and PNGs),
// ProgressEvent and `self`.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const skia = require('@napi-rs/canvas');

// The window's name for the global object (the loader reads self.URL for blob: URLs).
globalThis.self ??= globalThis;

// The event the file loader reports download progress with.
globalThis.ProgressEvent ??= class ProgressEvent extends Event {
  constructor(type, { lengthComputable = false, loaded = 0, total = 0 } = {}) {
    super(type);
    Object.assign(this, { lengthComputable, loaded, total });
  }
};

// A decoded image, as the browser's createImageBitmap returns it. Only the options the loader
// passes and Skia honours are accepted: anything else would change the pixels unnoticed.
globalThis.ImageBitmap = skia.Image;
globalThis.createImageBitmap = async (source, options = {}) => {
  if (options.imageOrientation && options.imageOrientation !== 'from-image' && options.imageOrientation !== 'none')
    throw new Error(`createImageBitmap: imageOrientation '${options.imageOrientation}' is not supported`);
  const bytes = Buffer.from(await source.arrayBuffer());
  return skia.loadImage(bytes);
};

// An OffscreenCanvas is Skia's canvas with the standard convertToBlob, and without Skia's own
// data() (its raw pixels): a browser canvas has no `data`, and GLTFExporter takes an image with
// one for a DataTexture's, writing zeros for a canvas a user painted. Skia's constructor returns
// its own object whatever the subclass, so the members are set on each canvas.
async function convertToBlob({ type = 'image/png', quality } = {}) {
  const format = type.replace(/^image\//, '');
  const bytes = await this.encode(format, quality === undefined ? undefined : Math.round(quality * 100));
  return new Blob([bytes], { type });
}
globalThis.OffscreenCanvas = class OffscreenCanvas {
  constructor(width, height) {
    const canvas = new skia.Canvas(width, height);
    Object.defineProperty(canvas, 'data', { value: undefined });
    Object.defineProperty(canvas, 'convertToBlob', { value: convertToBlob });
    return canvas;
  }
  static [Symbol.hasInstance](object) { return object instanceof skia.Canvas && object.data === undefined; }
};
globalThis.ImageData = skia.ImageData;
// A canvas element is the same Skia canvas (ImageUtils.getDataURL asks for its toDataURL).
globalThis.HTMLCanvasElement = skia.Canvas;

// FileReader over a Blob: the two reads the exporter uses, answered through onloadend.
globalThis.FileReader = class FileReader {
  #finish(promise) {
    promise.then((result) => { this.result = result; this.onload?.({ target: this }); this.onloadend?.({ target: this }); },
                 (error) => { this.error = error; this.onerror?.({ target: this }); this.onloadend?.({ target: this }); });
  }
  readAsArrayBuffer(blob) { this.#finish(blob.arrayBuffer()); }
  readAsDataURL(blob) {
    this.#finish(blob.arrayBuffer().then((b) =>
      `data:${blob.type || 'application/octet-stream'};base64,${Buffer.from(b).toString('base64')}`));
  }
};

// fetch of a file: URL reads the file, as a browser's does for a page opened from disk.
const networkFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input.url;
  if (url.startsWith('file:')) return new Response(await readFile(fileURLToPath(url)));
  return networkFetch(input, init);
};
