import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '@helix/shared/schemas/outbox';
import { IDEMPOTENCY_CRASH_POINTS } from '@helix/server/crash-point';
import {
  createPlan,
  CUSTOMER_PLAN_PERMISSIONS,
  seedRoles,
  uniqueName,
} from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../test/harness.ts';
import { bearer, customer, platformAdmin, type Caller } from '../test/models.ts';
import { startApiProcess, type ApiProcess } from './support/api-process.ts';

/**
 * API SIGKILL at each crash point of an idempotent edit (issue 16): the real API (apps/api/src/main.ts)
 * dies exactly at the step HELIX_CRASH_AT names, between claiming the Idempotency-Key, acting, storing
 * the answer, committing and sending it. After a restart the client retries with the same key: the
 * edit happened exactly once and the retry gets the true answer (201 with the role, never 409 "Role
 * Name already exists", never IDEMPOTENCY_IN_PROGRESS), and its audit event is there exactly once.
 */

let h: Harness;
let admin: Caller;
let owner: Caller;
const apis: ApiProcess[] = [];

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  admin = await platformAdmin(h);
  owner = await customer(h, {
    plan: await createPlan(h.db, { permissions: CUSTOMER_PLAN_PERMISSIONS }),
  });
  await h.db.tenantSubscription.update({ where: { tenantId: owner.tenant.id }, data: { userLimit: 1000 } });
});
afterAll(async () => {
  for (const api of apis) await api.kill();
  await h?.close();
});

async function api(crashAt?: string): Promise<ApiProcess> {
  const started = await startApiProcess({
    DATABASE_URL: h.config.DATABASE_URL,
    REDIS_URL: h.config.REDIS_URL,
    REDIS_PREFIX: h.config.REDIS_PREFIX,
    PUBLIC_URL: 'http://portal.test',
    RATE_LIMIT_MAX: '1000',
    ...(crashAt ? { HELIX_CRASH_AT: crashAt } : {}),
  });
  apis.push(started);
  return started;
}

interface Edit {
  name: string;
  caller: Caller;
  path: string;
  body: Record<string, unknown>;
  effects(): Promise<number>;
  /** Its audit events: exactly one with the one effect (they commit together). */
  auditEvents(): Promise<number>;
  /** The true answer of a first run. */
  expectAnswer(status: number, body: Record<string, unknown>): void;
}

const edits = (): Edit[] => {
  const role = uniqueName('Crash ');
  const email = `${uniqueName('crash').toLowerCase()}@example.test`;
  return [
    {
      name: 'role save',
      caller: admin,
      path: '/role/create',
      body: { id: 0, name: role, permissions: [] },
      effects: () => h.db.role.count({ where: { name: role } }),
      auditEvents: () =>
        h.db.auditEvent.count({
          where: { action: 'role.create', changes: { path: ['request', 'name'], equals: role } },
        }),
      expectAnswer(status, body) {
        expect(status, JSON.stringify(body)).toBe(201);
        expect(body).toMatchObject({ message: MSG.roleCreated, role: { name: role } });
      },
    },
    {
      name: 'invite user',
      caller: owner,
      path: '/user/invite',
      body: { name: 'Crash Invitee', email },
      // One invited user (its e-mail is unique) with one invitation.
      effects: () => h.db.invite.count({ where: { user: { email } } }),
      auditEvents: () => h.db.auditEvent.count({ where: { action: 'user.invite', targetId: email } }),
      expectAnswer(status, body) {
        expect(status, JSON.stringify(body)).toBe(201);
        expect(body).toMatchObject({ message: MSG.resetEmailSent(email) });
      },
    },
  ];
};

async function send(base: string, e: Edit, key: string) {
  const started = performance.now();
  const res = await fetch(`${base}${e.caller.base}${e.path}`, {
    method: 'POST',
    headers: { ...bearer(e.caller.token), 'Content-Type': 'application/json', [IDEMPOTENCY_HEADER]: key },
    body: JSON.stringify(e.body),
    signal: AbortSignal.timeout(20_000),
  });
  const body = (await res.json()) as Record<string, unknown>;
  return {
    status: res.status,
    body,
    replayed: res.headers.get(REPLAYED_HEADER),
    ms: performance.now() - started,
  };
}

describe('API SIGKILL at each crash point of an idempotent edit', () => {
  // Nine API processes are started (a doomed one per crash point and edit, one that takes the retries):
  // on a loaded machine each start takes up to 20 s, so the case gets the time that takes.
  it('one effect, and the retry after a restart gets the true answer', { timeout: 600_000 }, async () => {
    const rows: Record<string, string | number>[] = [];
    // The API process the client's retries reach: another process than the one that died, as after a
    // restart (started once; every doomed process is gone before a retry is sent).
    let restarted: ApiProcess | undefined;
    for (const point of IDEMPOTENCY_CRASH_POINTS) {
      const cases = edits().map((e) => ({ e, key: randomUUID() }));
      for (const { e, key } of cases) {
        const doomed = await api(point);
        // A transient 503 (DATABASE_BUSY under a loaded machine) stored nothing: the client sends again
        // with the same key, as it would, until the process reaches the crash point.
        let lost: { answer: Awaited<ReturnType<typeof send>> } | { error: unknown };
        for (let attempt = 1; ; attempt += 1) {
          lost = await send(doomed.url, e, key).then(
            (answer) => ({ answer }),
            (error: unknown) => ({ error }),
          );
          if (!('answer' in lost) || lost.answer.status !== 503 || attempt === 3) break;
        }
        expect(
          'error' in lost,
          `${point} ${e.name}: the API answered instead of dying: ${JSON.stringify('answer' in lost ? lost.answer : null)}`,
        ).toBe(true);
        expect(await doomed.exited).toMatchObject({ signal: 'SIGKILL' });
      }
      restarted ??= await api();
      for (const { e, key } of cases) {
        const retry = await send(restarted.url, e, key);
        e.expectAnswer(retry.status, retry.body);
        const effects = await e.effects();
        expect(effects, `${point} ${e.name}`).toBe(1);
        expect(await e.auditEvents(), `${point} ${e.name}: audit events`).toBe(1);
        // Before the commit nothing stood (the retry acts); after it, the stored answer is replayed.
        expect(retry.replayed, `${point} ${e.name}`).toBe(
          point === 'idempotency:after-commit' ? 'true' : null,
        );
        rows.push({
          'crash point': point,
          route: e.name,
          effects,
          'retry answer': `${retry.status}${retry.replayed ? ' (replayed)' : ''}`,
          'retry ms': Math.round(retry.ms),
        });
      }
    }
    await restarted?.kill('SIGTERM');
    console.log('API SIGKILL at each crash point of an idempotent edit');
    console.table(rows);
  });
});
