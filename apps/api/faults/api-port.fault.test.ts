import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { seedRoles } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../test/harness.ts';
import { bearer, customer } from '../test/models.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';

/**
 * A fault case must talk to the API process it started, never to another server that holds the port.
 * A port picked free and then bound by the API seconds later (its start takes that long on a loaded
 * machine) can be taken meanwhile by any process binding port 0 beside it: the unit and browser tests
 * run next to the fault suite and start Helix apps on ports the kernel picks. That other app answers
 * GET /api/health 200 like ours; the API started for the case dies with EADDRINUSE; and the case's
 * request, meant for an API that should die at a crash point, got that other app's 401 "Your session
 * has ended" (its database has no such session): idempotent-edit.fault.test.ts failed that way.
 */
let h: Harness;
let school: Awaited<ReturnType<typeof customer>>;
let other: Server;
const apis: ApiProcess[] = [];

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  school = await customer(h);
  // Another Helix app over another database: the unit tests' apps are this on ports the kernel picks.
  const elsewhere = await createHarness();
  other = createServer(elsewhere.app);
  other.on('close', () => void elsewhere.close());
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const api of apis) await api.kill('SIGKILL');
  await new Promise((resolve) => other?.close(resolve));
  await h?.close();
});

const env = () => ({
  DATABASE_URL: h.config.DATABASE_URL,
  REDIS_URL: h.config.REDIS_URL,
  REDIS_PREFIX: h.config.REDIS_PREFIX,
  PUBLIC_URL: 'http://portal.test',
});

describe('an API process of a fault case', () => {
  it('is not confused with another server holding the port it was given', async () => {
    const taken = String((other.address() as AddressInfo).port);
    // The other app answers there; a call with the school's session gets its "session has ended".
    const elsewhere = await fetch(`http://127.0.0.1:${taken}/api/t/${school.tenant.domainPrefix}/user/info`, {
      headers: bearer(school.token),
    });
    expect(elsewhere.status).toBe(401);
    expect(((await elsewhere.json()) as { message: string }).message).toBe(MSG.sessionExpired);

    const started = startApiProcess({ ...env(), PORT: taken }).then((api) => (apis.push(api), api));
    await expect(started).rejects.toThrow(/EADDRINUSE/);
  });

  it('listens on a port of its own choosing and answers for its own database', async () => {
    const api = await startApiProcess(env());
    apis.push(api);
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const me = await fetch(`${api.url}/api/t/${school.tenant.domainPrefix}/user/info`, {
      headers: bearer(school.token),
    });
    expect(me.status).toBe(200);
  });
});
