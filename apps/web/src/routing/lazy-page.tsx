import type { ReactNode } from 'react';
import type { RouteObject } from 'react-router-dom';

/**
 * A route whose screen is its own chunk, downloaded the first time the route matches, so a page loads
 * only the code it uses (the login form never downloads charts, the model grid or the admin screens).
 * The router waits for the chunk before it shows the route, so there is no loading flash per page.
 *
 *   { path: '/roles', ...lazyPage(() => import('../pages/roles/roles.page'), (m) => <m.RolesPage />) }
 *
 * `import()` must stay a literal call here, at the route, so Vite can see and split it.
 */
export function lazyPage<M>(
  load: () => Promise<M>,
  render: (module: M) => ReactNode,
): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ element: render(await load()) }) };
}
