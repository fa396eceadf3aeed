/**
 * The model file's address a share or embed page gives its viewer frame (`glb`): the API's signed
 * download URL, signed when the page was drawn (apps/api/src/http/public-link-page.ts), so the model
 * starts downloading with the viewer's document (its `Link: rel=preload` header, ./serve.ts) instead of
 * after the viewer's code and its API call. The API's answer stays authoritative: the hint is used only
 * when it names the same file and version as the answer's glbUrl (a signature of another minute is as
 * valid as the answer's), so the preloaded download is the one the viewer reads.
 */

const MODEL_FILE = /^\/api\/files\/models\/\d{1,10}$/;

/** The hint as a URL when it is a signed model file address on the API's origin, else null. */
function modelFileUrl(value: string | null, apiOrigin?: string): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (apiOrigin !== undefined && url.origin !== apiOrigin) return null;
    if (!MODEL_FILE.test(url.pathname) || !url.searchParams.get('sig')) return null;
    return url;
  } catch {
    return null;
  }
}

/** The address to download: the hint when it is the answer's file and version, else the answer's. */
export function hintedModelUrl(hint: string | null, answer: string): string {
  const h = modelFileUrl(hint);
  const a = modelFileUrl(answer);
  if (!h || !a) return answer;
  const same =
    h.origin === a.origin && h.pathname === a.pathname && h.searchParams.get('v') === a.searchParams.get('v');
  return same ? h.href : answer;
}

/**
 * The viewer document's preload of the hinted model file (a `Link` header), for a request whose query
 * has a `glb` on the API's origin; null otherwise. Its credentials mode (anonymous) is load-model.ts's.
 */
export function modelPreloadLink(search: string, apiUrl: string): string | null {
  let origin: string;
  try {
    origin = new URL(apiUrl).origin;
  } catch {
    return null;
  }
  const url = modelFileUrl(new URLSearchParams(search).get('glb'), origin);
  return url ? `<${url.href}>; rel=preload; as=fetch; crossorigin=anonymous` : null;
}
