import { matchRoutes, type RouteObject } from 'react-router-dom';

/**
 * Loads the lazy routes an address matches and makes them plain routes, before the browser's router
 * is made: the router then starts on the page itself, as the server rendered it, instead of its
 * loading screen while the chunks arrive (a hydration would not match). React Router's own way for a
 * server-rendered app with lazy routes.
 */
export async function loadMatchedRoutes(
  routes: RouteObject[],
  location: { pathname: string },
): Promise<void> {
  const matches = matchRoutes(routes, location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded);
      route.lazy = undefined;
    }),
  );
}
