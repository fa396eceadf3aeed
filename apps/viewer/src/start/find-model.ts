import { readAllowSrc, readApiUrl } from '../api-config.ts';
import { createApiLookup } from '../api-lookup.ts';
import { receiveOfflineCopy } from '../offline-copy.ts';
import { resolveModelSource, type ModelSource } from '../model-source.ts';
import type { ViewerParams } from '../params.ts';

/**
 * Which model this load shows, and how (its settings, branding, file URL): the API's answer (one call,
 * which counts one view), or, offline, the copy the portal hands over of a pinned model.
 */
export async function findModel(params: ViewerParams, offline: 'copy' | null): Promise<ModelSource> {
  if (offline === 'copy') {
    // No network: the portal hands over the copy it keeps of a pinned model (offline-copy.ts).
    return receiveOfflineCopy({ portalOrigin: new URL(await readApiUrl()).origin, params });
  }
  // `src` (tests, development) loads a file directly, but only when the server allows it
  // (VIEWER_ALLOW_SRC) or under the Vite dev server; otherwise `model` is resolved through the
  // API, which counts one view per call: resolveModelSource calls the lookup once per page load.
  const allowSrc = import.meta.env.DEV || (params.src !== null && (await readAllowSrc()));
  return resolveModelSource(params, {
    allowSrc,
    lookup: createApiLookup({ apiUrl: () => readApiUrl() }),
  });
}
