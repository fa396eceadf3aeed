// One file: the three.js scene's one owner (renderer, camera, controls, model); its parts share that state.
import {
  AmbientLight,
  AnimationMixer,
  Box3,
  DirectionalLight,
  Group,
  HemisphereLight,
  NeutralToneMapping,
  PerspectiveCamera,
  Scene,
  Sphere,
  SRGBColorSpace,
  Vector3,
  WebGLRenderer,
  type AnimationAction,
  type Mesh,
  type Object3D,
  type Vector3Tuple,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { GLTF } from 'three/addons/loaders/GLTFLoader.js';
import { restylePart } from './part-look.ts';

/** A named top-level part of the model (what layers, labels and the table of contents list). */
export interface Part {
  id: string;
  /** Display name: the original glTF node name. */
  name: string;
  description: string | null;
  object: Object3D;
  /** Label anchor in the part's local coordinates. */
  anchor: Vector3;
}

interface Tween {
  from: { position: Vector3; target: Vector3 };
  to: { position: Vector3; target: Vector3 };
  start: number;
  duration: number;
}

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
const VIEW_DIRECTION = new Vector3(0.45, 0.35, 1).normalize();
/** Time constant (s) of a follower's camera easing towards the leader's (setView). */
const GLIDE_SECONDS = 0.04;

/** The three.js side of the viewer: scene, camera, controls, framing, animation, highlighting. */
export class Viewer3D {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(40, 1, 0.01, 1000);
  readonly controls: OrbitControls;
  /** The pivot that holds the glTF scene (moved to centre the model when center_model is on). */
  readonly pivot = new Group();
  parts: Part[] = [];
  /** The glTF scene as loaded (AR exports a copy of it). */
  modelRoot: Object3D | null = null;
  /**
   * The user asked for reduced motion (prefers-reduced-motion): no auto-rotation on load, no
   * animated camera flights (the camera jumps), no glide after a drag.
   */
  reducedMotion = false;
  /** Animated camera flights started (tests: none under reduced motion). */
  flights = 0;
  centred = false;
  modelRadius = 1;
  private mixer: AnimationMixer | null = null;
  private actions: AnimationAction[] = [];
  private playing = false;
  private tween: Tween | null = null;
  private needsRender = true;
  private lastTime = 0;
  private frame = 0;
  private renderHooks: (() => void)[] = [];
  private frameCallbacks: (() => void)[] = [];
  private highlighted: Part | null = null;
  /** Colours set on parts (a live lesson's leader), over the model's own materials. */
  private colours = new Map<Part, string>();
  /** A live lesson's follower: the user's input cannot change the view (setLocked). */
  private locked = false;
  /** Tools that use the pointer themselves (drawing, the lesson's pointer) hold the orbit controls. */
  private pausedBy = new Set<string>();
  /** Where a follower's camera is easing to (setView). */
  private glide: { position: Vector3; target: Vector3 } | null = null;
  private resizeObserver: ResizeObserver;
  private modelBox: Box3 | null = null;
  /** Screen space covered by panels (CSS px): the model is framed in the rest. */
  private insets = { left: 0, bottom: 0 };

  constructor(private readonly container: HTMLElement) {
    this.renderer = new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.outputColorSpace = SRGBColorSpace;
    this.renderer.toneMapping = NeutralToneMapping;
    this.renderer.setClearColor(0x000000, 0);
    this.renderer.domElement.setAttribute('aria-label', '3D model view');
    this.renderer.domElement.setAttribute('role', 'img');
    this.renderer.domElement.tabIndex = 0;
    container.appendChild(this.renderer.domElement);

    // Lights only, no prefiltered environment map: PMREM shaders cost seconds on software
    // renderers (SwiftShader, low-end devices) and these models are matte.
    this.scene.add(new AmbientLight(0xffffff, 0.35));
    this.scene.add(new HemisphereLight(0xffffff, 0x3a4050, 1.3));
    // Key and fill lights ride with the camera so the side you look at is always lit.
    const key = new DirectionalLight(0xffffff, 1.9);
    key.position.set(-1, 1.6, 2.5);
    const fill = new DirectionalLight(0xdfe8ff, 0.6);
    fill.position.set(2, -0.5, 1);
    this.camera.add(key, fill);
    this.scene.add(this.camera);
    this.scene.add(this.pivot);

    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.dampingFactor = 0.12;
    const motion = window.matchMedia(REDUCED_MOTION);
    const applyMotion = () => {
      this.reducedMotion = motion.matches;
      this.controls.enableDamping = !motion.matches;
    };
    applyMotion();
    motion.addEventListener('change', applyMotion);
    this.controls.autoRotateSpeed = 1.5;
    // A drag without damping (reduced motion) moves the camera inside the pointer handler, so the
    // loop's own update() finds nothing left to do: draw on the controls' word instead.
    this.controls.addEventListener('change', () => this.invalidate());
    this.controls.addEventListener('start', () => {
      this.tween = null;
      this.glide = null;
    });

    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
    this.frame = requestAnimationFrame(this.loop);
  }

  /** Called after every rendered frame (labels follow the camera this way). */
  onRender(hook: () => void): void {
    this.renderHooks.push(hook);
  }

  /** Runs `callback` once at the start of the next frame, before it is drawn (what it changes shows then). */
  nextFrame(callback: () => void): void {
    this.frameCallbacks.push(callback);
  }

  invalidate(): void {
    this.needsRender = true;
  }

  get size(): { width: number; height: number } {
    return { width: this.container.clientWidth, height: this.container.clientHeight };
  }

  private resize(): void {
    const { width, height } = this.size;
    if (!width || !height) return;
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.applyViewOffset();
    this.invalidate();
  }

  /**
   * Shifts the projection so the orbit target sits in the middle of the uncovered area (panels on
   * the left on desktop, at the bottom in the compact layout) instead of under the panels.
   */
  setInsets(left: number, bottom: number): void {
    if (Math.abs(left - this.insets.left) < 1 && Math.abs(bottom - this.insets.bottom) < 1) return;
    this.insets = { left, bottom };
    this.applyViewOffset();
    this.invalidate();
  }

  private applyViewOffset(): void {
    const { width, height } = this.size;
    const { left, bottom } = this.insets;
    if (width && height && (left || bottom))
      this.camera.setViewOffset(width, height, -left / 2, bottom / 2, width, height);
    else this.camera.clearViewOffset();
    this.camera.updateProjectionMatrix();
  }

  /** The model's bounding box in world coordinates (null before a model is set). */
  get bounds(): Box3 | null {
    return this.modelBox;
  }

  /** Frames the model again for the current size and insets (before the user has moved the view). */
  reframe(): void {
    if (this.modelBox) this.frameView(this.modelBox);
  }

  setModel(gltf: GLTF, options: { center: boolean }): void {
    const root = gltf.scene;
    this.modelRoot = root;
    this.pivot.add(root);
    root.updateMatrixWorld(true);
    const box = new Box3().setFromObject(root);
    if (box.isEmpty()) box.set(new Vector3(-1, -1, -1), new Vector3(1, 1, 1));
    this.centred = options.center;
    if (options.center) {
      // Centre the model on the orbit target (the world origin).
      this.pivot.position.copy(box.getCenter(new Vector3()).negate());
      this.modelRadius = box.getBoundingSphere(new Sphere()).radius;
    } else {
      // Keep the model's own origin as the orbit target; frame everything as seen from there.
      let r = 0;
      for (const x of [box.min.x, box.max.x])
        for (const y of [box.min.y, box.max.y])
          for (const z of [box.min.z, box.max.z]) r = Math.max(r, Math.hypot(x, y, z));
      this.modelRadius = r;
    }
    this.pivot.updateMatrixWorld(true);
    this.modelRadius = Math.max(this.modelRadius, 1e-3);
    this.modelBox = options.center ? box.clone().translate(this.pivot.position) : box;
    this.frameView(this.modelBox);
    this.parts = findParts(root);

    if (gltf.animations.length) {
      this.mixer = new AnimationMixer(root);
      this.actions = gltf.animations.map((clip) => this.mixer!.clipAction(clip));
      for (const a of this.actions) {
        a.play();
        a.paused = true;
      }
    }
    this.invalidate();
  }

  /** Distance at which a sphere of the model's radius fills the view. */
  private fitDistance(radius: number): number {
    const vFov = (this.camera.fov * Math.PI) / 180;
    const hFov = 2 * Math.atan(Math.tan(vFov / 2) * Math.max(this.camera.aspect, 0.1));
    return (radius / Math.sin(Math.min(vFov, hFov) / 2)) * 1.05;
  }

  /**
   * Camera distance at which every corner of the box (relative to the orbit target at the origin)
   * fits the view from `dir`, with a small margin. Tighter than a bounding sphere for flat or long models.
   */
  private fitBox(box: Box3, dir: Vector3): number {
    // Only the area not covered by panels counts.
    const { width, height } = this.size;
    const freeV = height ? Math.max(0.3, (height - this.insets.bottom) / height) : 1;
    const freeH = width ? Math.max(0.3, (width - this.insets.left) / width) : 1;
    const tanV = Math.tan((this.camera.fov * Math.PI) / 360) * freeV;
    const tanH = (tanV / freeV) * Math.max(this.camera.aspect, 0.1) * freeH;
    const x = new Vector3(0, 1, 0).cross(dir).normalize();
    const y = dir.clone().cross(x);
    let d = 0;
    const c = new Vector3();
    for (const cx of [box.min.x, box.max.x])
      for (const cy of [box.min.y, box.max.y])
        for (const cz of [box.min.z, box.max.z]) {
          c.set(cx, cy, cz);
          const depth = c.dot(dir);
          d = Math.max(d, depth + Math.abs(c.dot(x)) / tanH, depth + Math.abs(c.dot(y)) / tanV);
        }
    return d * 1.12;
  }

  private frameView(box: Box3): void {
    const r = this.modelRadius;
    const distance = Math.max(this.fitBox(box, VIEW_DIRECTION), r * 0.5);
    this.camera.near = r / 200;
    this.camera.far = distance * 20 + r * 4;
    this.camera.updateProjectionMatrix();
    this.controls.target.set(0, 0, 0);
    this.camera.position.copy(VIEW_DIRECTION).multiplyScalar(distance);
    this.controls.minDistance = r * 0.05;
    this.controls.maxDistance = distance * 6;
    this.controls.update();
    this.controls.saveState();
  }

  get hasAnimations(): boolean {
    return this.actions.length > 0;
  }

  get isPlaying(): boolean {
    return this.playing;
  }

  /** Plays/pauses the model's animations, or auto-rotation for models without animations. */
  setPlaying(on: boolean): void {
    this.playing = on;
    if (this.hasAnimations) for (const a of this.actions) a.paused = !on;
    else this.controls.autoRotate = on && !this.locked;
    this.invalidate();
  }

  /**
   * A live lesson's follower (lesson/): orbit, zoom, pan, the keys, Reset, flights to a part and
   * auto-rotation cannot move the camera; only setView does. A drag's glide left over is spent first.
   */
  setLocked(on: boolean): void {
    if (on === this.locked) return;
    this.locked = on;
    if (on) {
      this.tween = null;
      this.settleControls();
    }
    this.controls.autoRotate = this.playing && !this.hasAnimations && !on;
    this.applyInputState();
    this.invalidate();
  }

  get isLocked(): boolean {
    return this.locked;
  }

  /** A tool takes the pointer (drawing, pointing): the orbit controls let go of it meanwhile. */
  pauseInput(tool: string, on: boolean): void {
    if (on) this.pausedBy.add(tool);
    else this.pausedBy.delete(tool);
    this.applyInputState();
  }

  private applyInputState(): void {
    this.controls.enabled = !this.locked && this.pausedBy.size === 0;
  }

  /** Applies (and clears) any glide left from a drag or a key: update() without damping does. */
  private settleControls(): void {
    const damping = this.controls.enableDamping;
    this.controls.enableDamping = false;
    this.controls.update();
    this.controls.enableDamping = damping;
  }

  /**
   * Puts the camera at `position` looking at `target` (world coordinates; a lesson's leader's view):
   * eased over a few frames when `ease` (the latest call's view wins), at once under reduced motion.
   * The distance limits widen to take it (the leader's frame may have another shape).
   */
  setView(position: Vector3Tuple, target: Vector3Tuple, ease: boolean): void {
    this.tween = null;
    const to = { position: new Vector3(...position), target: new Vector3(...target) };
    const distance = to.position.distanceTo(to.target);
    this.controls.maxDistance = Math.max(this.controls.maxDistance, distance);
    this.controls.minDistance = Math.min(this.controls.minDistance, distance);
    if (ease && !this.reducedMotion) this.glide = to;
    else {
      this.glide = null;
      this.camera.position.copy(to.position);
      this.controls.target.copy(to.target);
    }
    this.invalidate();
  }

  /** factor < 1 zooms in, > 1 zooms out. */
  zoom(factor: number): void {
    if (this.locked) return;
    if (factor < 1) this.controls.dollyOut(1 / factor);
    else this.controls.dollyIn(factor);
    this.invalidate();
  }

  orbit(left: number, up: number): void {
    if (this.locked) return;
    this.controls.rotateLeft(left);
    this.controls.rotateUp(up);
    this.invalidate();
  }

  resetView(): void {
    if (this.locked) return;
    this.tween = null;
    this.glide = null;
    // Spend any glide left from a drag or a key first, so the saved view is where the camera ends up.
    this.settleControls();
    this.controls.reset();
    this.highlight(null);
    this.invalidate();
  }

  /** Moves the orbit target to a part and frames it: a smooth flight, or a jump under reduced motion. */
  focusPart(part: Part): void {
    if (this.locked) return;
    const box = new Box3();
    part.object.traverseVisible((o) => {
      if ((o as Mesh).isMesh) box.expandByObject(o);
    });
    if (box.isEmpty()) box.setFromObject(part.object);
    if (box.isEmpty()) return;
    const sphere = box.getBoundingSphere(new Sphere());
    const dir = this.camera.position.clone().sub(this.controls.target).normalize();
    const distance = Math.max(this.fitDistance(sphere.radius) * 1.25, this.controls.minDistance * 1.5);
    if (this.reducedMotion) {
      this.tween = null;
      this.controls.target.copy(sphere.center);
      this.camera.position.copy(sphere.center).addScaledVector(dir, distance);
      this.invalidate();
      return;
    }
    this.flights++;
    this.tween = {
      from: { position: this.camera.position.clone(), target: this.controls.target.clone() },
      to: { position: sphere.center.clone().addScaledVector(dir, distance), target: sphere.center.clone() },
      start: performance.now(),
      duration: 650,
    };
    this.invalidate();
  }

  /** Emissive highlight on one part (null clears). Materials are cloned so shared ones stay intact. */
  highlight(part: Part | null): void {
    const previous = this.highlighted;
    this.highlighted = part;
    if (previous && previous !== part) this.restyle(previous);
    if (part) this.restyle(part);
    this.invalidate();
  }

  /** A colour (#rrggbb) over a part's own materials; null gives the part its own back. */
  setPartColour(part: Part, colour: string | null): void {
    if ((this.colours.get(part) ?? null) === colour) return;
    if (colour) this.colours.set(part, colour);
    else this.colours.delete(part);
    this.restyle(part);
    this.invalidate();
  }

  partColour(part: Part): string | null {
    return this.colours.get(part) ?? null;
  }

  private restyle(part: Part): void {
    restylePart(part.object, {
      colour: this.colours.get(part) ?? null,
      highlighted: this.highlighted === part,
    });
  }

  get highlightedPart(): Part | null {
    return this.highlighted;
  }

  setPartVisible(part: Part, visible: boolean): void {
    part.object.visible = visible;
    this.invalidate();
  }

  /** Screen position (CSS pixels) of a part's label anchor; null when behind the camera. */
  anchorOnScreen(part: Part): { x: number; y: number } | null {
    const p = part.object.localToWorld(part.anchor.clone()).project(this.camera);
    if (p.z > 1 || p.z < -1) return null;
    const { width, height } = this.size;
    return { x: ((p.x + 1) / 2) * width, y: ((1 - p.y) / 2) * height };
  }

  /** Renders one frame now (used before reporting 'ready'). */
  renderNow(): void {
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
    this.needsRender = false;
    for (const h of this.renderHooks) h();
  }

  private loop = (now: number): void => {
    this.frame = requestAnimationFrame(this.loop);
    if (this.frameCallbacks.length) {
      const callbacks = this.frameCallbacks;
      this.frameCallbacks = [];
      for (const callback of callbacks) callback();
    }
    // During an AR session the renderer draws the AR scene (webxr-ar.ts), not this one.
    if (this.renderer.xr.isPresenting) return;
    const dt = this.lastTime ? Math.min((now - this.lastTime) / 1000, 0.1) : 0;
    this.lastTime = now;
    let dirty = this.needsRender;
    if (this.glide) {
      // Exponential easing: a new view mid-way simply becomes the new goal (no queue, no restart).
      const k = 1 - Math.exp(-dt / GLIDE_SECONDS);
      this.camera.position.lerp(this.glide.position, k);
      this.controls.target.lerp(this.glide.target, k);
      const close = this.modelRadius * 1e-4;
      if (
        this.camera.position.distanceTo(this.glide.position) < close &&
        this.controls.target.distanceTo(this.glide.target) < close
      ) {
        this.camera.position.copy(this.glide.position);
        this.controls.target.copy(this.glide.target);
        this.glide = null;
      }
      dirty = true;
    }
    if (this.tween) {
      const t = Math.min(1, (performance.now() - this.tween.start) / this.tween.duration);
      const e = t < 0.5 ? 4 * t * t * t : 1 - Math.pow(-2 * t + 2, 3) / 2;
      this.camera.position.lerpVectors(this.tween.from.position, this.tween.to.position, e);
      this.controls.target.lerpVectors(this.tween.from.target, this.tween.to.target, e);
      if (t >= 1) this.tween = null;
      dirty = true;
    }
    if (this.mixer && this.playing) {
      this.mixer.update(dt);
      dirty = true;
    }
    if (this.controls.update(dt)) dirty = true;
    if (dirty) {
      this.renderer.render(this.scene, this.camera);
      this.needsRender = false;
      for (const h of this.renderHooks) h();
    }
  };

  dispose(): void {
    cancelAnimationFrame(this.frame);
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
  }
}

/**
 * The named parts: the children of the first node that has more than one child (so a single
 * wrapper node such as 'Animal cell' is looked through). A model with a single mesh is one part.
 */
export function findParts(root: Object3D): Part[] {
  let container: Object3D = root;
  while (container.children.length === 1 && !(container.children[0] as Mesh).isMesh)
    container = container.children[0]!;
  const nodes = container.children.length ? container.children : [container];
  const used = new Map<string, number>();
  return nodes.map((object, i) => {
    // GLTFLoader keeps the original glTF name in userData.name (Object3D.name is sanitised).
    const original = typeof object.userData.name === 'string' ? object.userData.name : null;
    const name = original ?? (object.name ? object.name.replace(/_/g, ' ') : `Part ${i + 1}`);
    const n = (used.get(name) ?? 0) + 1;
    used.set(name, n);
    const anchorData = object.userData.labelAnchor as unknown;
    let anchor: Vector3;
    if (
      Array.isArray(anchorData) &&
      anchorData.length === 3 &&
      anchorData.every((v) => typeof v === 'number')
    ) {
      anchor = new Vector3(...(anchorData as [number, number, number]));
    } else {
      // Centre of the first mesh inside the part (a group's centre may be empty space).
      let first: Object3D | null = null;
      object.traverse((o) => {
        if (!first && (o as Mesh).isMesh) first = o;
      });
      const box = new Box3().setFromObject(first ?? object);
      anchor = object.worldToLocal(
        box.isEmpty() ? object.getWorldPosition(new Vector3()) : box.getCenter(new Vector3()),
      );
    }
    const description = typeof object.userData.description === 'string' ? object.userData.description : null;
    return { id: `part-${i}`, name: n > 1 ? `${name} (${n})` : name, description, object, anchor };
  });
}
