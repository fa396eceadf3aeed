import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dropDatabase } from '@helix/server/testing/test-db';
import type { Db } from '../db.ts';
import { createTestDb } from '../testing/test-db.ts';
import { withTransaction } from '../db/transaction.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { currentAudit, noteAudit, runAudited, writePendingAudit } from './audit-context.ts';

let db: Db;
let database: { name: string; url: string };

beforeAll(async () => {
  database = await createTestDatabase('helix_audit');
  db = createTestDb(database.url);
  await db.$executeRawUnsafe('CREATE TABLE audit_probe (id int PRIMARY KEY)');
});
afterAll(async () => {
  await db?.$disconnect();
  if (database) await dropDatabase(database.name);
});
beforeEach(async () => {
  await db.$executeRawUnsafe('TRUNCATE audit_probe');
  await db.auditEvent.deleteMany();
});

const actor = {
  user: { id: 7, name: 'Olivia Owner', email: 'olivia@school.example' },
  tenant: { id: 3 },
} as unknown as Actor;

/** Runs `fn` as an audited request would: the context open around it. */
const audited = <T>(fn: () => Promise<T>, atAnswer = false) =>
  runAudited(
    {
      action: 'role.update',
      actor,
      target: () => ({ type: 'role', id: 12 }),
      input: () => ({ name: 'Editors', password: 'secret' }),
      queuedAt: null,
      requestId: 'req-1',
      atAnswer,
    },
    fn,
  );

const probe = (tx: { $executeRaw: Db['$executeRaw'] }, id: number) =>
  tx.$executeRaw`INSERT INTO audit_probe (id) VALUES (${id})`;
const probes = async () => (await db.$queryRaw<{ id: number }[]>`SELECT id FROM audit_probe`).length;

describe('the audit event commits with its change or not at all', () => {
  it('a committed transaction writes the event once, with who and what (secrets redacted)', async () => {
    await audited(async () => {
      await withTransaction(db, (tx) => probe(tx, 1));
      // A later transaction of the same request does not write it again.
      await withTransaction(db, (tx) => probe(tx, 2));
    });
    const events = await db.auditEvent.findMany();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      tenantId: 3,
      actorId: 7,
      actorName: 'Olivia Owner',
      action: 'role.update',
      targetType: 'role',
      targetId: '12',
      changes: { request: { name: 'Editors', password: '[redacted]' } },
      offline: false,
      requestId: 'req-1',
    });
  });

  it('a transaction that rolls back takes the event with it; the next one writes it', async () => {
    await audited(async () => {
      await expect(
        withTransaction(db, async (tx) => {
          await probe(tx, 1);
          throw AppError.conflict('no');
        }),
      ).rejects.toThrow('no');
      expect(await db.auditEvent.count()).toBe(0);
      expect(currentAudit()!.written).toBe(false);
      await withTransaction(db, (tx) => probe(tx, 2));
    });
    expect(await db.auditEvent.count()).toBe(1);
    expect(await probes()).toBe(1);
  });

  it('a savepoint that wrote the event and an outer transaction that rolls back: nothing, pending again', async () => {
    await audited(async () => {
      await expect(
        withTransaction(db, async () => {
          await withTransaction(db, (inner) => probe(inner, 1));
          expect(currentAudit()!.written).toBe(true);
          throw AppError.badRequest('outer fails');
        }),
      ).rejects.toThrow('outer fails');
      expect(currentAudit()!.written).toBe(false);
    });
    expect(await db.auditEvent.count()).toBe(0);
    expect(await probes()).toBe(0);
  });

  it('a failed savepoint the outer transaction survives: the outer one writes the event', async () => {
    await audited(async () => {
      await withTransaction(db, async (tx) => {
        await withTransaction(db, async (inner) => {
          await probe(inner, 1);
          throw AppError.badRequest('inner fails');
        }).catch(() => undefined);
        await probe(tx, 2);
        noteAudit({ action: 'role.create', targetId: 99 });
      });
    });
    const events = await db.auditEvent.findMany();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'role.create', targetId: '99' });
  });

  it('outside an audited request nothing is written; an at-answer context waits for the answer', async () => {
    await withTransaction(db, (tx) => probe(tx, 1));
    expect(await db.auditEvent.count()).toBe(0);
    await audited(async () => {
      await withTransaction(db, (tx) => probe(tx, 2));
      expect(await db.auditEvent.count()).toBe(0);
      await withTransaction(db, (tx) => writePendingAudit(tx, currentAudit(), true));
    }, true);
    expect(await db.auditEvent.count()).toBe(1);
  });
});
