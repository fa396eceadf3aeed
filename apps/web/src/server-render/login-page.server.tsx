import { createStore } from 'jotai';
import { sessionReadyAtom } from '../session/session.atoms';
import { googleSignInAtom } from '../session/sign-in-providers';
import { renderRoute, type RenderedPage } from './render-route.server';

export type { RenderedPage } from './render-route.server';

/**
 * The login page as the browser app renders it for a signed-out visitor on the portal's own host,
 * rendered at build time (build/render-login.ts) with the app's own routes, guard, layout and form,
 * so the HTML paints the real form before any script runs. Runs in Node only.
 * `google`: whether the page offers Google sign-in (the server has a provider configured).
 */
export function renderLoginPage(options: { google: boolean } = { google: true }): Promise<RenderedPage> {
  // Signed out, with the session read: what the guard sees when no session cookie is set.
  const store = createStore();
  store.set(sessionReadyAtom, true);
  // With or without "Continue with Google": the build draws both, the API serves the one that fits.
  store.set(googleSignInAtom, options.google);
  return renderRoute('/login', store);
}

/**
 * /signup as the browser app renders it for a signed-out visitor on the portal's own host (the form,
 * step 1 of the sign-up), rendered at build time like the login (build/render-login.ts). The browser hydrates
 * it as every server-rendered page (src/main.tsx).
 */
export function renderSignupPage(options: { google: boolean } = { google: true }): Promise<RenderedPage> {
  const store = createStore();
  store.set(sessionReadyAtom, true);
  store.set(googleSignInAtom, options.google);
  return renderRoute('/signup', store);
}
