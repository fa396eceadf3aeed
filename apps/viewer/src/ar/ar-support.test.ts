import { describe, expect, it } from 'vitest';
import { detectArMode } from './ar-support.ts';

/** A document whose links do or do not announce rel="ar", and a navigator with or without WebXR. */
const env = (quickLook: boolean, xr?: (mode: string) => Promise<boolean>) => ({
  document: {
    createElement: () => ({ relList: { supports: (t: string) => quickLook && t === 'ar' } }),
  } as unknown as Document,
  navigator: xr ? { xr: { isSessionSupported: xr } } : {},
});

describe('detectArMode', () => {
  it('is Quick Look where links announce rel="ar" (Safari on iPad and iPhone)', async () => {
    expect(await detectArMode(env(true))).toBe('quick-look');
  });
  it('is WebXR where immersive-ar sessions are supported (Chrome on ARCore devices)', async () => {
    expect(await detectArMode(env(false, async (m) => m === 'immersive-ar'))).toBe('webxr');
  });
  it('is nothing without either, or when WebXR says no or refuses (a frame without xr-spatial-tracking)', async () => {
    expect(await detectArMode(env(false))).toBeNull();
    expect(await detectArMode(env(false, async (m) => m === 'immersive-vr'))).toBeNull();
    expect(
      await detectArMode(env(false, () => Promise.reject(new DOMException('no', 'SecurityError')))),
    ).toBeNull();
  });
});
