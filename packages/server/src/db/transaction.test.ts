import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, dropDatabase } from '@helix/server/testing/test-db';
import { Prisma, type Db } from '../db.ts';
import { createTestDb } from '../testing/test-db.ts';
import { AppError } from '../errors.ts';
import {
  afterCommit,
  HeldTransaction,
  TRANSACTION_ATTEMPTS,
  withTransaction,
  type TransactionClient,
} from './transaction.ts';

let db: Db;
let other: Db;
let database: { name: string; url: string };

beforeAll(async () => {
  database = await createTestDatabase('helix_tx');
  db = createTestDb(database.url);
  other = createTestDb(database.url);
  await db.$executeRawUnsafe('CREATE TABLE tx_probe (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)');
});
afterAll(async () => {
  await db?.$disconnect();
  await other?.$disconnect();
  if (database) await dropDatabase(database.name);
});
beforeEach(async () => {
  await db.$executeRawUnsafe('TRUNCATE tx_probe');
  await db.$executeRawUnsafe('INSERT INTO tx_probe (id) VALUES (1), (2)');
});

const bump = (tx: TransactionClient, id: number) =>
  tx.$executeRaw`UPDATE tx_probe SET n = n + 1 WHERE id = ${id}`;
const rows = async () =>
  (await other.$queryRaw<{ id: number; n: number }[]>`SELECT id, n FROM tx_probe ORDER BY id`).map((r) => [
    r.id,
    r.n,
  ]);

/** Until a statement in this test's database waits for a lock another transaction holds. */
async function untilSomeoneWaitsForALock(): Promise<void> {
  for (;;) {
    const [row] = await other.$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if ((row?.waiting ?? 0) > 0) return;
    await sleep(20);
  }
}

/** Two promises that each resolve once both sides have arrived. */
function barrier() {
  let arrivals = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    arrivals += 1;
    if (arrivals === 2) open();
    return opened;
  };
}

describe('withTransaction', () => {
  it('retries the loser of a real deadlock (two rows locked in opposite order): both succeed', async () => {
    const meet = barrier();
    const attempts = { a: 0, b: 0 };
    const run = (name: 'a' | 'b', first: number, second: number) =>
      withTransaction(db, async (tx) => {
        attempts[name] += 1;
        await bump(tx, first);
        await meet();
        await bump(tx, second);
      });
    await Promise.all([run('a', 1, 2), run('b', 2, 1)]);
    expect(attempts.a + attempts.b).toBe(3);
    expect(await rows()).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it('retries a real serialization failure (40001 under REPEATABLE READ) and succeeds', async () => {
    let attempts = 0;
    await withTransaction(
      db,
      async (tx) => {
        attempts += 1;
        await tx.$queryRaw`SELECT n FROM tx_probe WHERE id = 1`;
        // Another connection changes the row after this snapshot was taken (first attempt only).
        if (attempts === 1) await other.$executeRaw`UPDATE tx_probe SET n = 10 WHERE id = 1`;
        await bump(tx, 1);
      },
      { isolationLevel: 'RepeatableRead' },
    );
    expect(attempts).toBe(2);
    expect(await rows()).toEqual([
      [1, 11],
      [2, 0],
    ]);
  });

  it('retries when the connection is lost before the commit', async () => {
    let attempts = 0;
    await withTransaction(db, async (tx) => {
      attempts += 1;
      await bump(tx, 1);
      if (attempts === 1) {
        const [probe] = await tx.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
        const pid = probe!.pid;
        await other.$queryRaw`SELECT pg_terminate_backend(${pid}::int)`;
      }
      await bump(tx, 2);
    });
    expect(attempts).toBe(2);
    expect(await rows()).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  it('answers 503 DATABASE_BUSY with Retry-After when the conflicts outlast the retries', async () => {
    let attempts = 0;
    const failure = await withTransaction(db, async () => {
      attempts += 1;
      throw new Prisma.PrismaClientKnownRequestError('write conflict', {
        code: 'P2034',
        clientVersion: Prisma.prismaVersion.client,
      });
    }).catch((error: unknown) => error);
    expect(attempts).toBe(TRANSACTION_ATTEMPTS);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ status: 503, code: 'DATABASE_BUSY', retryAfter: 1 });
  });

  it('does not retry other errors', async () => {
    let attempts = 0;
    await expect(
      withTransaction(db, async () => {
        attempts += 1;
        throw AppError.notFound();
      }),
    ).rejects.toMatchObject({ status: 404 });
    expect(attempts).toBe(1);
  });

  it('joins an ambient transaction through a savepoint: a failing inner one undoes only its writes', async () => {
    await withTransaction(db, async (tx) => {
      await bump(tx, 1);
      await expect(
        withTransaction(db, async (inner) => {
          await bump(inner, 2);
          throw AppError.badRequest('inner refused');
        }),
      ).rejects.toMatchObject({ status: 400 });
      // The outer transaction is still usable and still uncommitted.
      await bump(tx, 1);
      expect(await rows()).toEqual([
        [1, 0],
        [2, 0],
      ]);
    });
    expect(await rows()).toEqual([
      [1, 2],
      [2, 0],
    ]);
  });

  it('retries a deadlocked savepoint alone, inside the outer transaction', async () => {
    const meet = barrier();
    const attempts = { outer: 0, inner: 0, rival: 0 };
    const outer = withTransaction(db, async (tx) => {
      attempts.outer += 1;
      await tx.$executeRaw`INSERT INTO tx_probe (id) VALUES (3)`;
      await withTransaction(db, async (inner) => {
        attempts.inner += 1;
        await bump(inner, 1);
        await meet();
        await bump(inner, 2);
      });
    });
    const rival = withTransaction(db, async (tx) => {
      attempts.rival += 1;
      await bump(tx, 2);
      await meet();
      // The savepoint waits first, so PostgreSQL's deadlock check (run by the backend that has waited
      // deadlock_timeout) picks it as the victim. Waits for its wait, not for a time: on a loaded
      // machine the savepoint's statement could come after a fixed pause, and the rival lose instead.
      await untilSomeoneWaitsForALock();
      await bump(tx, 1);
    });
    await Promise.all([outer, rival]);
    expect(attempts).toEqual({ outer: 1, inner: 2, rival: 1 });
    expect(await rows()).toEqual([
      [1, 2],
      [2, 2],
      [3, 0],
    ]);
  });
});

describe('afterCommit', () => {
  it('runs after the outermost commit, in order, and drops the hooks of a rolled-back savepoint', async () => {
    const ran: string[] = [];
    await withTransaction(db, async (tx) => {
      await bump(tx, 1);
      await afterCommit(async () => {
        // Committed: another connection sees the write.
        ran.push(`a:${(await rows())[0]![1]}`);
      });
      await withTransaction(db, async () => {
        await afterCommit(() => ran.push('b'));
      });
      await withTransaction(db, async () => {
        await afterCommit(() => ran.push('dropped'));
        throw AppError.badRequest('no');
      }).catch(() => undefined);
      await afterCommit(() => ran.push('c'));
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['a:1', 'b', 'c']);
  });

  it('drops the hooks when the transaction rolls back, and runs at once outside a transaction', async () => {
    const ran: string[] = [];
    await withTransaction(db, async () => {
      await afterCommit(() => ran.push('never'));
      throw AppError.badRequest('no');
    }).catch(() => undefined);
    await afterCommit(() => ran.push('now'));
    expect(ran).toEqual(['now']);
  });
});

describe('HeldTransaction', () => {
  it('begins at the first withTransaction inside it and commits everything with its last step', async () => {
    const held = new HeldTransaction(db, {
      onBegin: (tx) => tx.$executeRaw`INSERT INTO tx_probe (id) VALUES (5)`,
    });
    const ran: string[] = [];
    await held.run(async () => {
      expect(held.begun).toBe(false);
      await withTransaction(db, (tx) => bump(tx, 1));
      await afterCommit(() => ran.push('hook'));
    });
    expect(held.begun).toBe(true);
    expect(await rows()).toEqual([
      [1, 0],
      [2, 0],
    ]);
    await held.commit((tx) => bump(tx, 2));
    expect(ran).toEqual(['hook']);
    expect(await rows()).toEqual([
      [1, 1],
      [2, 1],
      [5, 0],
    ]);
  });

  it('rolls back everything, hooks included', async () => {
    const held = new HeldTransaction(db, {
      onBegin: (tx) => tx.$executeRaw`INSERT INTO tx_probe (id) VALUES (5)`,
    });
    const ran: string[] = [];
    await held.run(async () => {
      await withTransaction(db, (tx) => bump(tx, 1));
      await afterCommit(() => ran.push('hook'));
    });
    await held.rollback();
    expect(ran).toEqual([]);
    expect(await rows()).toEqual([
      [1, 0],
      [2, 0],
    ]);
  });
});
