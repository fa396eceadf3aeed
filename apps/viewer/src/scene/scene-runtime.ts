import { DRACOLoader } from 'three/addons/loaders/DRACOLoader.js';
import { GLTFLoader, type GLTF } from 'three/addons/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';
import { ModelLoadError } from '../load-model.ts';

/**
 * The three.js half of the viewer, its own chunk: main.ts starts downloading it at once and, while it
 * downloads and compiles, looks the model up and fetches the model file, so the two run in parallel
 * instead of one after the other.
 */
export { Viewer3D } from './viewer-3d.ts';

export async function parseGltf(buffer: ArrayBuffer, url: string): Promise<GLTF> {
  const loader = new GLTFLoader();
  const draco = new DRACOLoader();
  loader.setDRACOLoader(draco);
  loader.setMeshoptDecoder(MeshoptDecoder);
  try {
    // A pinned copy handed over by the portal is a blob: URL, which has no folder to resolve against;
    // a .glb carries its resources, so none is needed.
    const base = url.startsWith('blob:') ? '' : new URL('.', url).href;
    return await loader.parseAsync(buffer, base);
  } catch (e) {
    throw new ModelLoadError('invalid', 0, (e as Error)?.message ?? 'Invalid glTF');
  } finally {
    draco.dispose();
  }
}
