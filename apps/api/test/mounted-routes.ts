import type { Express } from 'express';

interface Layer {
  rawPath?: string | RegExp | (string | RegExp)[];
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

const join = (prefix: string, path: string) =>
  `${prefix}${path === '/' ? '' : path}`.replace(/\/{2,}/g, '/') || '/';

/**
 * Every route Express has mounted on the app, as `METHOD /path` (Express's own `:param` spelling),
 * read from the router stacks: a route's paths and methods, a router's mount path (router 2's
 * `rawPath`) joined with what it holds. Middleware without a route (static files, body parsers) is not
 * a route. A mount path that is a regular expression cannot be spelt, and is reported as such.
 */
export function mountedRoutes(app: Express): Set<string> {
  const found = new Set<string>();
  const walk = (stack: Layer[], prefix: string) => {
    for (const layer of stack) {
      const raw = layer.rawPath ?? '/';
      const paths = [raw].flat();
      for (const path of paths) {
        const spelt = path instanceof RegExp ? `<regexp ${path.source}>` : path;
        if (layer.route) {
          for (const routePath of [layer.route.path].flat()) {
            for (const method of Object.keys(layer.route.methods)) {
              if (method === '_all') continue;
              found.add(`${method.toUpperCase()} ${join(prefix, routePath)}`);
            }
          }
        } else if (layer.handle?.stack) {
          walk(layer.handle.stack, join(prefix, spelt));
        }
      }
    }
  };
  const router = (app as unknown as { router: { stack: Layer[] } }).router;
  walk(router.stack, '');
  return found;
}
