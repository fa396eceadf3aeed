import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll } from 'vitest';
import { seedRoles } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';

/**
 * What the server-render API tests share (server-render.test.ts, server-render-guest.test.ts): the real
 * API, a built app's folder with its index.html, pages mounted in front of the API as app.ts mounts
 * them, and requests with a session cookie on a host.
 */

const INDEX =
  '<!doctype html><html><head><title>Helix</title></head><body><div id="root"></div></body></html>';

/** The web app's cookies of a signed-in browser, among another cookie. */
export const cookies = (token: string) => `other=1; apiToken=${encodeURIComponent(token)}; auth-type=login`;

export interface ServerRenderSetup {
  /** The real API (with roles seeded). */
  h: Harness;
  /** The built app's folder: index.html only. */
  dir: string;
}

/**
 * Made before the file's tests (call it before the file's own beforeAll) and removed after them; its
 * fields are there once the file's beforeAll runs.
 */
export function useServerRenderSetup(folderPrefix: string): ServerRenderSetup {
  const setup = {} as ServerRenderSetup;
  beforeAll(async () => {
    setup.h = await createHarness();
    await seedRoles(setup.h.db);
    setup.dir = await mkdtemp(path.join(os.tmpdir(), folderPrefix));
    await writeFile(path.join(setup.dir, 'index.html'), INDEX);
  });
  afterAll(async () => {
    await setup.h?.close();
    if (setup.dir) await rm(setup.dir, { recursive: true, force: true });
  });
  return setup;
}

/** The pages `mount` mounts in front of the real API, as app.ts mounts them; anything else is the app shell. */
export function inFrontOf(api: Express, mount: (served: Express) => void): Express {
  const served = express();
  mount(served);
  served.use((req, res, next) => (req.path.startsWith('/api/') ? api(req, res, next) : next()));
  served.use((_req, res) => void res.send('app shell'));
  return served;
}

/** GET `url` of `on` (by default the file's app) on `host`, with `cookie` if any. */
export const getOf =
  (app: () => Express) =>
  (url: string, cookie?: string, host = 'portal.test', on: Express = app()) => {
    const req = request(on).get(url).set('Host', host);
    return cookie ? req.set('Cookie', cookie) : req;
  };
