import type { Object3D } from 'three';
import { USDZExporter } from 'three/addons/exporters/USDZExporter.js';

/**
 * The USDZ Quick Look opens, made by three.js's USDZExporter: stored (not compressed), the model file
 * first, every file's data 64-byte aligned, anchored on a horizontal surface, with the exporter's
 * Quick Look workarounds on. Hidden parts are left out.
 */
export function exportUsdz(holder: Object3D): Promise<Uint8Array> {
  return new USDZExporter().parseAsync(holder, {
    quickLookCompatible: true,
    includeAnchoringProperties: true,
    ar: { anchoring: { type: 'plane' }, planeAnchoring: { alignment: 'horizontal' } },
    onlyVisible: true,
    maxTextureSize: 2048,
  });
}
