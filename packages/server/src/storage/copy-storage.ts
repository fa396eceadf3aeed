import type { Storage } from './storage.ts';

export interface CopyResult {
  copied: string[];
  /** Already in the target with the same size (a re-run after an interruption skips them). */
  skipped: string[];
}

/** Content types by extension, for objects copied out of a store that keeps none (the local folder). */
const TYPES: Record<string, string> = {
  glb: 'model/gltf-binary',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

/**
 * Copies every object of one store into another under the same key (e.g. the local folder into S3
 * before switching STORAGE to S3; docs/object-storage.md). Each object is streamed and written
 * atomically, so a reader of the target never sees half of one; an object already there with the same
 * size is skipped, so an interrupted copy can be run again. Nothing is deleted from the source.
 */
export async function copyStorage(
  from: Storage,
  to: Storage,
  log: (line: string) => void = () => {},
): Promise<CopyResult> {
  const result: CopyResult = { copied: [], skipped: [] };
  for (const key of await from.list('')) {
    const [source, target] = await Promise.all([from.stat(key), to.stat(key)]);
    if (!source) continue; // deleted since the listing
    if (target?.size === source.size) {
      result.skipped.push(key);
      continue;
    }
    const object = await from.get(key);
    if (!object) continue;
    await to.put(key, object.body, TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream');
    result.copied.push(key);
    log(`copied ${key} (${source.size} bytes)`);
  }
  return result;
}
