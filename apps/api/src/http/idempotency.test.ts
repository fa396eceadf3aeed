import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '@helix/shared/schemas/outbox';
import { Prisma } from '@helix/server/db';
import { afterCommit, withTransaction } from '@helix/server/db/transaction';
import type { Actor } from '@helix/server/sessions/session.service';
import { createTenant, createUser, uniqueName } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { errorHandler } from './error-handler.ts';
import { idempotent } from './idempotency.ts';

/**
 * The Idempotency-Key middleware's transaction, on a probe route: the key, the command's writes, its
 * afterCommit work and the stored answer stand or fall together. (Replay, 422 on reuse and concurrent
 * duplicates on the real outbox routes: apps/api/src/routes/outbox.routes.test.ts.)
 */

let h: Harness;
let app: Express;
let userId: number;
const sentAfterCommit: string[] = [];

beforeAll(async () => {
  h = await createHarness();
  const tenant = await createTenant(h.db);
  const user = await createUser(h.db, { tenant });
  userId = user.id;
  app = express();
  app.use(express.json());
  app.use((req, _res, next) => {
    req.actor = { user: { id: user.id }, tenant: { id: tenant.id } } as unknown as Actor;
    next();
  });
  app.post('/probe', idempotent(h.deps), async (req, res) => {
    const { name } = req.body as { name: string };
    const fail = req.get('X-Probe-Fail');
    await withTransaction(h.db, async (tx) => {
      if (fail === 'busy') {
        throw new Prisma.PrismaClientKnownRequestError('write conflict', {
          code: 'P2034',
          clientVersion: Prisma.prismaVersion.client,
        });
      }
      await tx.role.create({ data: { name } });
    });
    await afterCommit(() => sentAfterCommit.push(name));
    if (fail === 'after-command') throw new Error('probe failed after its command');
    res.status(201).json({ name, sent: sentAfterCommit.includes(name) });
  });
  app.use(errorHandler);
});
afterAll(async () => {
  await h?.close();
});

const probe = (key: string, name: string, fail?: string) =>
  request(app)
    .post('/probe')
    .set(IDEMPOTENCY_HEADER, key)
    .set(fail ? { 'X-Probe-Fail': fail } : {})
    .send({ name });
const roles = (name: string) => h.db.role.count({ where: { name } });
const keyRow = (key: string) => h.db.idempotencyKey.findUnique({ where: { userId_key: { userId, key } } });

describe('idempotent()', () => {
  it('commits the key, the writes and the answer together; afterCommit work runs before the answer is sent', async () => {
    const key = randomUUID();
    const name = uniqueName('Probe ');
    const first = await probe(key, name);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ name, sent: false });
    // The hook ran after the commit and before the answer left (the answer was made before it).
    expect(sentAfterCommit).toContain(name);
    expect(await roles(name)).toBe(1);
    expect(await keyRow(key)).toMatchObject({ state: 'done', responseStatus: 201 });

    const replay = await probe(key, name);
    expect(replay.status).toBe(201);
    expect(replay.headers[REPLAYED_HEADER.toLowerCase()]).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(sentAfterCommit.filter((n) => n === name)).toHaveLength(1);
  });

  it('a 5xx after the command rolls everything back (no key, no write, no job): the retry acts', async () => {
    const key = randomUUID();
    const name = uniqueName('Probe ');
    const failed = await probe(key, name, 'after-command');
    expect(failed.status).toBe(500);
    expect(await roles(name)).toBe(0);
    expect(await keyRow(key)).toBeNull();
    expect(sentAfterCommit).not.toContain(name);

    const retry = await probe(key, name);
    expect(retry.status).toBe(201);
    expect(retry.headers[REPLAYED_HEADER.toLowerCase()]).toBeUndefined();
    expect(await roles(name)).toBe(1);
    expect(sentAfterCommit.filter((n) => n === name)).toHaveLength(1);
  });

  it('conflicts that outlast the retries answer 503 DATABASE_BUSY with Retry-After, not kept', async () => {
    const key = randomUUID();
    const name = uniqueName('Probe ');
    const busy = await probe(key, name, 'busy');
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.body).toMatchObject({ statusCode: 503, code: ERROR_CODES.databaseBusy });
    expect(await keyRow(key)).toBeNull();
    expect((await probe(key, name)).status).toBe(201);
  });
});
