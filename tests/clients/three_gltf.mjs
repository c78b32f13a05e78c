// three.js glTF client driver of the real-client round trips (tests/cli/cli_clients.sh): loads a
// glTF with GLTFLoader, applies the edits named on the command line through three's scene API and
// writes it with GLTFExporter (binary for OUT.glb, JSON with embedded data for OUT.gltf).
//
// node three_gltf.mjs IN OUT [EDIT...]; the edits are blender_gltf.py's (glTF axes, glTF names).
import './browser_canvas.mjs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { GLTFExporter } from 'three/examples/jsm/exporters/GLTFExporter.js';
import { imageRamp } from './image_ramp.mjs';
import { driverName, fail, numbers, split } from './edit_args.mjs';

driverName('three_gltf.mjs');

function object(scene, name) {
  const found = scene.getObjectByName(name);
  if (!found) fail(`no object named '${name}'`);
  return found;
}

function material(scene, name) {
  let found = null;
  scene.traverse((o) => { if (o.material && o.material.name === name) found = o.material; });
  if (!found) fail(`no material named '${name}'`);
  return found;
}

const EDITS = {
  move(scene, arg) {
    const [name, offset] = split(arg);
    const [dx, dy, dz] = numbers(offset, 3);
    const position = object(scene, name).geometry.attributes.position;
    for (let i = 0; i < position.count; i++)
      position.setXYZ(i, position.getX(i) + dx, position.getY(i) + dy, position.getZ(i) + dz);
    position.needsUpdate = true;
  },
  rename(scene, arg, animations) {
    const [name, next] = split(arg);
    object(scene, name).name = next;
    // three binds a clip's tracks to objects by name ("head.quaternion"): a renamed object
    // loses its tracks (the mixer and GLTFExporter, which drops them with "Could not export
    // animation track"), so a three user renames the tracks with it.
    for (const clip of animations)
      for (const track of clip.tracks)
        if (track.name.startsWith(`${name}.`)) track.name = next + track.name.slice(name.length);
  },
  color(scene, arg) {
    const [name, rgba] = split(arg);
    const [r, g, b, a] = numbers(rgba, 4);
    const m = material(scene, name);
    m.color.setRGB(r, g, b, THREE.LinearSRGBColorSpace); // baseColorFactor is linear
    m.opacity = a;
  },
  image(scene, arg) {
    const [name, rgba] = split(arg);
    let texture = null;
    scene.traverse((o) => { if (o.material?.map?.name === name) texture = o.material.map; });
    if (!texture) fail(`no texture named '${name}'`);
    const { width, height } = texture.image;
    const canvas = new OffscreenCanvas(width, height);
    canvas.getContext('2d').putImageData(new ImageData(imageRamp(width, height, numbers(rgba, 4)), width, height), 0, 0);
    texture.image = canvas;
    texture.needsUpdate = true;
  },
  delete(scene, arg) {
    object(scene, arg).removeFromParent(); // with everything under it
  },
  scale(scene, arg) {
    const [name, factor] = split(arg);
    object(scene, name).scale.setScalar(Number(factor));
  },
  skin(scene, arg) {
    const mesh = object(scene, arg);
    const geometry = mesh.geometry;
    const count = geometry.attributes.position.count;
    geometry.setAttribute('skinIndex', new THREE.Uint16BufferAttribute(new Uint16Array(count * 4), 4));
    const weights = new Float32Array(count * 4);
    for (let i = 0; i < count; i++) weights[i * 4] = 1;
    geometry.setAttribute('skinWeight', new THREE.Float32BufferAttribute(weights, 4));
    const skinned = new THREE.SkinnedMesh(geometry, mesh.material);
    skinned.name = mesh.name;
    skinned.position.copy(mesh.position);
    skinned.quaternion.copy(mesh.quaternion);
    const bone = new THREE.Bone();
    bone.name = `${arg}_bone`;
    skinned.add(bone);
    mesh.parent.add(skinned);
    for (const child of [...mesh.children]) skinned.add(child);
    mesh.removeFromParent();
    skinned.updateMatrixWorld(true);
    skinned.bind(new THREE.Skeleton([bone]));
  },
};

async function main(argv) {
  if (argv.length < 2) fail('usage: node three_gltf.mjs IN OUT [EDIT...]');
  const [source, target, ...edits] = argv;
  const dir = pathToFileURL(path.resolve(path.dirname(source))).href + '/';
  const bytes = await readFile(source);
  const data = source.endsWith('.gltf') ? bytes.toString('utf8') : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const gltf = await new GLTFLoader().parseAsync(data, dir);
  for (const edit of edits) {
    const at = edit.indexOf('=');
    const kind = at < 0 ? edit : edit.slice(0, at);
    if (!EDITS[kind]) fail(`unknown edit '${edit}'`);
    EDITS[kind](gltf.scene, at < 0 ? '' : edit.slice(at + 1), gltf.animations);
  }
  const binary = target.endsWith('.glb');
  const result = await new GLTFExporter().parseAsync(gltf.scene, { binary, animations: gltf.animations });
  await writeFile(target, binary ? Buffer.from(result) : JSON.stringify(result));
}

await main(process.argv.slice(2));
