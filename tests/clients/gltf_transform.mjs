// gltf-transform client driver of the real-client round trips (tests/cli/cli_clients.sh): reads a
// glTF with @gltf-transform/core's NodeIO (every extension gltf-transform knows), runs the named
// @gltf-transform/functions operations and edits through the document API, and writes OUT.
//
// node gltf_transform.mjs IN OUT [STEP...]
// STEP: dedup | weld | prune | quantize (the functions, with their defaults; with no step the
// file is copied, as `gltf-transform copy`) or an edit of blender_gltf.py (glTF names and axes).
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { dedup, weld, prune, quantize } from '@gltf-transform/functions';
import { createRequire } from 'node:module';
import { imageRamp } from './image_ramp.mjs';
import { driverName, fail, numbers, split } from './edit_args.mjs';

driverName('gltf_transform.mjs');

const require = createRequire(import.meta.url);
const skia = require('@napi-rs/canvas'); // a PNG encoder for the image edit

const OPERATIONS = { dedup, weld, prune, quantize };

function named(list, name, what) {
  const found = list.find((item) => item.getName() === name);
  if (!found) fail(`no ${what} named '${name}'`);
  return found;
}

const EDITS = {
  move(doc, arg) {
    const [name, offset] = split(arg);
    const delta = numbers(offset, 3);
    const node = named(doc.getRoot().listNodes(), name, 'node');
    for (const primitive of node.getMesh().listPrimitives()) {
      const position = primitive.getAttribute('POSITION');
      const element = [];
      for (let i = 0; i < position.getCount(); i++)
        position.setElement(i, position.getElement(i, element).map((v, axis) => v + delta[axis]));
    }
  },
  rename(doc, arg) {
    const [name, next] = split(arg);
    named(doc.getRoot().listNodes(), name, 'node').setName(next);
  },
  color(doc, arg) {
    const [name, rgba] = split(arg);
    named(doc.getRoot().listMaterials(), name, 'material').setBaseColorFactor(numbers(rgba, 4));
  },
  image(doc, arg) {
    const [name, rgba] = split(arg);
    const texture = named(doc.getRoot().listTextures(), name, 'texture');
    const [width, height] = texture.getSize();
    const canvas = new skia.Canvas(width, height);
    canvas.getContext('2d').putImageData(new skia.ImageData(imageRamp(width, height, numbers(rgba, 4)), width, height), 0, 0);
    texture.setImage(new Uint8Array(canvas.toBuffer('image/png'))).setMimeType('image/png');
  },
  delete(doc, arg) {
    const doomed = [named(doc.getRoot().listNodes(), arg, 'node')];
    for (let i = 0; i < doomed.length; i++) doomed.push(...doomed[i].listChildren());
    for (const node of doomed) node.dispose(); // the node and everything under it
  },
  scale(doc, arg) {
    const [name, factor] = split(arg);
    const s = Number(factor);
    named(doc.getRoot().listNodes(), name, 'node').setScale([s, s, s]);
  },
  skin(doc, arg) {
    const node = named(doc.getRoot().listNodes(), arg, 'node');
    const buffer = doc.getRoot().listBuffers()[0];
    const joint = doc.createNode(`${arg}_bone`);
    node.addChild(joint);
    const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    const skin = doc.createSkin(`${arg}_skin`).addJoint(joint).setInverseBindMatrices(
      doc.createAccessor().setType('MAT4').setArray(new Float32Array(identity)).setBuffer(buffer));
    for (const primitive of node.getMesh().listPrimitives()) {
      const count = primitive.getAttribute('POSITION').getCount();
      const weights = new Float32Array(count * 4);
      for (let i = 0; i < count; i++) weights[i * 4] = 1;
      primitive.setAttribute('JOINTS_0', doc.createAccessor().setType('VEC4')
        .setArray(new Uint8Array(count * 4)).setBuffer(buffer));
      primitive.setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(weights).setBuffer(buffer));
    }
    node.setSkin(skin);
  },
};

async function main(argv) {
  if (argv.length < 2) fail('usage: node gltf_transform.mjs IN OUT [STEP...]');
  const [source, target, ...steps] = argv;
  const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
  const doc = await io.read(source);
  for (const step of steps) {
    const at = step.indexOf('=');
    const kind = at < 0 ? step : step.slice(0, at);
    if (OPERATIONS[kind] && at < 0) await doc.transform(OPERATIONS[kind]());
    else if (EDITS[kind] && at >= 0) EDITS[kind](doc, step.slice(at + 1));
    else fail(`unknown step '${step}'`);
  }
  await io.write(target, doc);
}

await main(process.argv.slice(2));
