/**
 * /embed/{token} and /share/{token} are shown inside other people's web pages (an iframe on a school's
 * site, a link in a lesson). There the portal's own PWA behaviour is out of place: no "ready to work
 * offline" toast, no "new version" prompt, no install prompt, and no service worker precaching the
 * whole portal into a visitor's browser on someone else's page.
 */
const FRAMED_PATHS = [/^\/embed(\/|$)/, /^\/share(\/|$)/];

export const isFramedPath = (pathname: string): boolean => FRAMED_PATHS.some((re) => re.test(pathname));

/**
 * Called once before the first render. On a framed page the web app manifest is unlinked (the page is
 * then not installable) and the browser's install prompt is suppressed; it stays so if the visitor
 * moves on within the app, since the browser decides installability per page load.
 */
export function quietPwaOnFramedPages(
  pathname: string,
  doc: Document = document,
  win: Window = window,
): void {
  if (!isFramedPath(pathname)) return;
  doc.querySelectorAll('link[rel="manifest"]').forEach((link) => link.remove());
  win.addEventListener('beforeinstallprompt', (event) => event.preventDefault());
}
