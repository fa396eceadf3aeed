import {
  DirectionalLight,
  HemisphereLight,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  RingGeometry,
  Scene,
  type Object3D,
  type WebGLRenderer,
} from 'three';

export interface WebXrArOptions {
  /** The viewer's renderer: the session draws with it, so no second WebGL context is made. */
  renderer: WebGLRenderer;
  /** The model placed per arPlacement (metres, standing on the origin). */
  model: Object3D;
  /** Shown over the camera image during the session (hint and Exit button): WebXR DOM Overlay. */
  overlay: HTMLElement;
  /** Told whether a surface is found (the hint changes) and when the model is placed. */
  onStatus(status: 'searching' | 'surface' | 'placed'): void;
  onEnd(): void;
}

/**
 * An immersive-ar session (Chrome on ARCore devices): a ring marks the surface the device points at
 * (WebXR hit test); a tap places the model there at its AR scale; tapping again moves it. Ends with
 * the overlay's Exit button or the system's back gesture. Returns the session so the caller can end it.
 */
export async function startWebXrAr(options: WebXrArOptions): Promise<XRSession> {
  const { renderer, model, overlay } = options;
  const xr = navigator.xr;
  if (!xr) throw new Error('WebXR is not available');
  const session = await xr.requestSession('immersive-ar', {
    requiredFeatures: ['hit-test'],
    optionalFeatures: ['dom-overlay'],
    domOverlay: { root: overlay },
  });

  const scene = new Scene();
  const camera = new PerspectiveCamera();
  scene.add(new HemisphereLight(0xffffff, 0x3a4050, 2));
  const sun = new DirectionalLight(0xffffff, 1.5);
  sun.position.set(0.5, 1, 0.25);
  scene.add(sun);
  const reticle = new Mesh(
    new RingGeometry(0.06, 0.08, 40).rotateX(-Math.PI / 2),
    new MeshBasicMaterial({ color: 0xffffff }),
  );
  reticle.matrixAutoUpdate = false;
  reticle.visible = false;
  model.visible = false;
  scene.add(reticle, model);

  const previousEnabled = renderer.xr.enabled;
  renderer.xr.enabled = true;
  renderer.xr.setReferenceSpaceType('local');
  let hitSource: XRHitTestSource | undefined;
  let status: 'searching' | 'surface' | 'placed' = 'searching';
  const setStatus = (next: typeof status) => {
    if (next !== status) options.onStatus((status = next));
  };
  const end = () => {
    hitSource?.cancel();
    renderer.setAnimationLoop(null);
    renderer.xr.enabled = previousEnabled;
    scene.remove(model);
    reticle.geometry.dispose();
    (reticle.material as MeshBasicMaterial).dispose();
    options.onEnd();
  };
  session.addEventListener('end', end, { once: true });
  try {
    await renderer.xr.setSession(session);
    const viewerSpace = await session.requestReferenceSpace('viewer');
    hitSource = await session.requestHitTestSource?.({ space: viewerSpace });
  } catch (e) {
    await session.end().catch(() => undefined);
    throw e;
  }
  options.onStatus(status);

  session.addEventListener('select', () => {
    if (!reticle.visible) return;
    model.position.setFromMatrixPosition(reticle.matrix);
    model.visible = true;
    setStatus('placed');
  });
  renderer.setAnimationLoop((_time, frame?: XRFrame) => {
    const space = renderer.xr.getReferenceSpace();
    const hit = frame && hitSource && space ? frame.getHitTestResults(hitSource)[0] : undefined;
    const pose = hit && space ? hit.getPose(space) : undefined;
    reticle.visible = !!pose;
    if (pose) {
      reticle.matrix.fromArray(pose.transform.matrix);
      if (status === 'searching') setStatus('surface');
    }
    renderer.render(scene, camera);
  });
  return session;
}
