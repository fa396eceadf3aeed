import { createStore } from 'jotai';
import type { HomePageInput, ServerBundle } from '@helix/shared/handover';
import { seedFirstListing } from '../models/listing-seed';
import { resolveRedirect } from '../routing/guard';
import { authTypeAtom, sessionReadyAtom, sessionUserAtom } from '../session/session.atoms';
import type { DrawnHomeData } from './drawn-data';
import { drawnDocument } from './drawn-document';
import { renderRoute, type PrerenderedPage } from './render-route.server';
import { usedCss } from './used-css';

/** The bundle's interface and input: the typed hand-over contract the API imports (@helix/shared/handover). */
export type { HomePageInput };

/** The app's own stylesheets of the home route's chunks (build/server-bundle.ts defines it). */
declare const __HOME_CSS__: string;

/** Pruned styles by the set of classes a page uses: pages of the same components share one entry. */
const cssCache = new Map<string, string>();
const CSS_CACHE_MAX = 64;

async function prunedCss(page: PrerenderedPage): Promise<string> {
  // What PurgeCSS matches selectors against: classes, ids, element and attribute names.
  const words = new Set<string>();
  for (const [, list] of page.html.matchAll(/class="([^"]*)"/g))
    for (const c of list!.split(/\s+/)) words.add(c);
  for (const [name] of page.html.matchAll(/<[a-z][a-z0-9-]*|\s[a-zA-Z-]+(?==)|id="[^"]*"/g)) words.add(name);
  const key = `${page.css.length}:${[...words].sort().join(' ')}`;
  const hit = cssCache.get(key);
  if (hit !== undefined) return hit;
  const css = await usedCss(page.html, page.css);
  if (cssCache.size >= CSS_CACHE_MAX) cssCache.delete(cssCache.keys().next().value!);
  cssCache.set(key, css);
  return css;
}

/** The drawn page's address. */
const HOME = '/user/home';

/**
 * The whole document of a signed-in user's home: index.html with the page drawn in #root, its styles,
 * and the grid's answer for the app that takes it over (src/prerender/drawn-data.ts). Null when the
 * app's route guard would not show this user the page (a platform admin, a user who must pick a plan
 * first...): the app shell then answers, and the guard moves them on as always.
 */
export const renderHomeDocument: ServerBundle['renderHomeDocument'] = async (indexHtml, input) => {
  if (resolveRedirect(HOME, { user: input.user, authType: input.authType, brand: null }) !== null)
    return null;
  const page = await renderHomePage(input);
  const css = `${await prunedCss(page)}\n${__HOME_CSS__}`;
  const data: DrawnHomeData = { tenant: input.tenant, userId: input.user.id, listing: input.listing };
  return drawnDocument(indexHtml, { html: page.html, css }, 'home', data);
};

/**
 * A signed-in user's home (/user/home, the model grid) as the browser app renders it for them, drawn
 * by the API for the session cookie of a first visit (apps/api/src/http/drawn-home.ts) with the app's
 * own routes, guard, layout and grid. Runs in Node only, from the server bundle the build writes
 * (build/server-bundle.ts).
 */
export function renderHomePage(input: HomePageInput): Promise<PrerenderedPage> {
  const store = createStore();
  store.set(sessionUserAtom, input.user);
  store.set(authTypeAtom, input.authType);
  store.set(sessionReadyAtom, true);
  // The grid's first answer, as the page hands it to the app (the render is synchronous: the seed
  // belongs to this render only).
  return renderRoute(HOME, store, () => seedFirstListing(input.listing));
}
