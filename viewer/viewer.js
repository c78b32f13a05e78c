// unearth's glTF viewer (docs/gallery.md): loads ?m=PATH (relative to the gallery's folder) with
// three.js's GLTFLoader and the KHR_animation_pointer plugin, so material and texture clips play
// too; orbit controls, a clip list with play/pause and a frame slider. window.unearthViewer holds
// the state, for the browser test and the curious.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { GLTFAnimationPointerExtension } from '@needle-tools/three-animation-pointer';

// The slider steps in the clip's own frames, as `unearth preview --frame` counts them: the rate
// its glTF animation records in extras.fps, 30 when it records none (docs/preview.md).
const DEFAULT_FPS = 30;
const clipFps = (i) => {
  const fps = state.gltf.parser.json.animations?.[i]?.extras?.fps;
  return typeof fps === 'number' && fps > 0 ? fps : DEFAULT_FPS;
};
const $ = (id) => document.getElementById(id);
const state = window.unearthViewer = { status: 'loading', error: null, clips: [], current: -1, fps: DEFAULT_FPS };

// Only a model inside the gallery: a relative path without '..', no scheme, no backslash. A '#' or
// '?' in a name (batch output names keep '#') is fine: each segment is percent-encoded below.
function modelUrl() {
  const m = new URLSearchParams(location.search).get('m');
  if (!m || /^[a-z][a-z0-9+.-]*:/i.test(m) || m.startsWith('/') || m.split('/').includes('..') || m.includes('\\'))
    throw new Error(`no model to show: give viewer.html?m=PATH, a glTF file below the gallery (got ${JSON.stringify(m)})`);
  return { name: m, url: new URL(m.split('/').map(encodeURIComponent).join('/'), new URL('../', location.href)) };
}

function fail(error) {
  state.status = 'error';
  state.error = String(error && error.message || error);
  $('status').textContent = state.error;
  $('status').className = 'error';
  console.error('unearth viewer:', error);
}

const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio);
renderer.setClearColor(0x303030, 1);
$('view').appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.0));
const sun = new THREE.DirectionalLight(0xffffff, 2.0);
sun.position.set(1, 2, 3);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
const controls = new OrbitControls(camera, renderer.domElement);
const clock = new THREE.Clock();
Object.assign(state, { renderer, scene, camera, controls });

function resize() {
  const el = $('view');
  renderer.setSize(el.clientWidth, el.clientHeight, false);
  camera.aspect = el.clientWidth / Math.max(1, el.clientHeight);
  camera.updateProjectionMatrix();
}
window.addEventListener('resize', resize);
resize();

// The camera looks at the model's bounds from the front and a little above, the whole of it in view.
function frame(object) {
  const box = new THREE.Box3().setFromObject(object);
  const size = box.isEmpty() ? 1 : box.getSize(new THREE.Vector3()).length() || 1;
  const center = box.isEmpty() ? new THREE.Vector3() : box.getCenter(new THREE.Vector3());
  camera.near = size / 100;
  camera.far = size * 100;
  camera.position.copy(center).add(new THREE.Vector3(0.4, 0.3, 1).normalize().multiplyScalar(size * 1.2));
  camera.updateProjectionMatrix();
  controls.target.copy(center);
  controls.update();
}

function showTime() {
  const action = state.action;
  const t = action ? action.time : 0;
  $('time').value = String(Math.round(t * state.fps));
  $('clock').textContent = action ? `frame ${Math.round(t * state.fps)} / ${$('time').max}` : '';
}

// Makes clip i the one shown, stopped at its start.
state.select = (i) => {
  if (state.action) state.action.stop();
  state.current = i;
  state.fps = clipFps(i);
  const clip = state.gltf.animations[i];
  state.action = state.mixer.clipAction(clip);
  state.action.reset().play();
  state.action.paused = true;
  state.mixer.update(0);
  document.querySelectorAll('#clips button').forEach((b, k) => b.classList.toggle('on', k === i));
  $('time').max = String(Math.max(1, Math.round(clip.duration * state.fps)));
  $('time').disabled = $('play').disabled = false;
  $('play').textContent = 'play';
  showTime();
};
// Shows the current clip at `seconds` (paused there).
state.setTime = (seconds) => {
  if (!state.action) return;
  state.action.paused = true;
  $('play').textContent = 'play';
  state.action.time = seconds;
  state.mixer.update(0);
  showTime();
  state.render();
};
state.render = () => renderer.render(scene, camera);

$('play').addEventListener('click', () => {
  if (!state.action) return;
  state.action.paused = !state.action.paused;
  $('play').textContent = state.action.paused ? 'play' : 'pause';
});
$('time').addEventListener('input', () => state.setTime(Number($('time').value) / state.fps));

function listClips(animations) {
  animations.forEach((clip, i) => {
    const li = document.createElement('li');
    const button = document.createElement('button');
    button.textContent = `${clip.name || `clip ${i}`} (${clip.duration.toFixed(2)} s)`;
    button.addEventListener('click', () => state.select(i));
    li.appendChild(button);
    $('clips').appendChild(li);
  });
  if (!animations.length) $('clips').textContent = 'none';
}

function loop() {
  requestAnimationFrame(loop);
  const dt = clock.getDelta();
  if (state.mixer && state.action && !state.action.paused) {
    state.mixer.update(dt);
    showTime();
  }
  controls.update();
  state.render();
}

try {
  const model = modelUrl();
  $('name').textContent = model.name;
  document.title = `${model.name} — unearth viewer`;
  const loader = new GLTFLoader();
  loader.register((parser) => new GLTFAnimationPointerExtension(parser));
  loader.load(model.url.href, (gltf) => {
    state.gltf = gltf;
    state.clips = gltf.animations.map((a) => a.name);
    state.mixer = new THREE.AnimationMixer(gltf.scene);
    scene.add(gltf.scene);
    frame(gltf.scene);
    listClips(gltf.animations);
    if (gltf.animations.length) state.select(0);
    $('status').textContent = `${gltf.animations.length} clip${gltf.animations.length === 1 ? '' : 's'}`;
    state.render();
    state.status = 'ready';
    loop();
  }, undefined, fail);
} catch (error) {
  fail(error);
}
