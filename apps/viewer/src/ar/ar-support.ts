/** How this device shows a model in AR: WebXR (Android Chrome) or Quick Look (iPad/iPhone Safari). */
export type ArMode = 'webxr' | 'quick-look';

interface ArEnvironment {
  document: Pick<Document, 'createElement'>;
  navigator: { xr?: { isSessionSupported(mode: string): Promise<boolean> } };
}

/** WebXR's answer can take a moment; a device that has not answered by then does not get the action. */
const XR_ANSWER_MS = 3000;

/**
 * The AR mode this browser supports, or null (then the "View in AR" action is absent). Quick Look is
 * what Safari on iOS/iPadOS announces with `<a rel="ar">`; WebXR's immersive-ar is what Chrome on
 * ARCore devices offers. A refusal (a frame without `xr-spatial-tracking`, a browser that throws)
 * counts as unsupported.
 */
export async function detectArMode(env: ArEnvironment = window): Promise<ArMode | null> {
  try {
    const a = env.document.createElement('a');
    if (a.relList?.supports?.('ar')) return 'quick-look';
  } catch {
    /* relList.supports throws for unknown tokens in some engines: no Quick Look */
  }
  const xr = env.navigator.xr;
  if (!xr || typeof xr.isSessionSupported !== 'function') return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const supported = await Promise.race([
      xr.isSessionSupported('immersive-ar'),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), XR_ANSWER_MS))),
    ]);
    return supported === true ? 'webxr' : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The model's real-world scale from its metadata: glTF scene extras `metersPerUnit` (glTF units are
 * metres, so 1 means "the file is at real size"; an anatomy model authored in millimetres says 0.001).
 * Anything else (missing, zero, negative, not a number) means "no real-world size".
 */
export function metersPerUnitOf(extras: unknown): number | null {
  const value = (extras as { metersPerUnit?: unknown } | null | undefined)?.metersPerUnit;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}
