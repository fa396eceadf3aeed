import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { listMigrations } from '@helix/server/db/migration-files';
import { migrate } from '@helix/server/db/migrate';
import { freePort, which } from './services/net.ts';
import { resolvePostgres } from './services/postgres.ts';
import { MissingServiceError, redisPing, resolveRedis } from './services/redis.ts';
import { resolveSmtp } from './services/smtp.ts';
import { ADMIN_DATABASE_URL, databaseUrl, dropDatabase } from '@helix/server/testing/test-db';

const dataDir = mkdtempSync(path.join(tmpdir(), 'helix-stack-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('mail catcher', () => {
  it('writes every message it receives as an .eml file', async () => {
    const smtp = await resolveSmtp({ smtpUrl: undefined, dataDir });
    try {
      expect(smtp.kind).toBe('embedded');
      const transport = nodemailer.createTransport(smtp.url);
      await transport.sendMail({
        from: 'Helix <no-reply@helix.local>',
        to: 'someone@example.com',
        subject: 'Reset your password',
        text: 'hello',
      });
      transport.close();
      const files = readdirSync(smtp.mailDir!);
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{8}\.eml$/);
      expect(readFileSync(path.join(smtp.mailDir!, files[0]!), 'utf8')).toContain(
        'Subject: Reset your password',
      );
    } finally {
      await smtp.stop();
    }
  });

  it('uses SMTP_URL when it is given', async () => {
    const smtp = await resolveSmtp({ smtpUrl: 'smtp://mail.example.com:587' });
    expect(smtp).toMatchObject({ kind: 'external', url: 'smtp://mail.example.com:587' });
  });
});

describe('Redis discovery', () => {
  it('stops with a message naming Redis and docker compose when there is none', async () => {
    const port = await freePort();
    const attempt = resolveRedis({ redisUrl: undefined, probePort: port, redisServer: null, dataDir });
    await expect(attempt).rejects.toThrow(MissingServiceError);
    await expect(attempt).rejects.toThrow(/Redis.*\n?.*docker compose up -d/s);
  });

  it.skipIf(!which('redis-server'))('starts redis-server as a child when nothing answers', async () => {
    const redis = await resolveRedis({
      redisUrl: undefined,
      probePort: await freePort(),
      dataDir,
      quiet: true,
    });
    const port = Number(new URL(redis.url).port);
    try {
      expect(redis.kind).toBe('embedded');
      expect(await redisPing(port)).toBe(true);
    } finally {
      await redis.stop();
    }
    expect(await redisPing(port)).toBe(false);
  });
});

describe('PostgreSQL discovery', () => {
  const created: string[] = [];
  afterAll(async () => {
    for (const name of created) await dropDatabase(name);
  });

  it('creates the database named in DATABASE_URL when the server lacks it', async () => {
    const name = `helix_ensure_${randomBytes(3).toString('hex')}`;
    created.push(name);
    const url = databaseUrl(ADMIN_DATABASE_URL, name);
    const service = await resolvePostgres({ databaseUrl: url });
    expect(service).toMatchObject({ kind: 'external', url });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.end();
  });

  it('falls back to the embedded PGlite server, which takes the migrations and the seed', async () => {
    const service = await resolvePostgres({ databaseUrl: undefined, probe: false, dataDir, quiet: true });
    try {
      expect(service.kind).toBe('embedded');
      expect(await migrate(service.url)).toEqual(listMigrations().map((m) => m.name));
      const { seed } = await import('../../../prisma/seed.ts');
      await seed(service.url);
      expect(await seed(service.url)).toBe('nothing to add');
      const client = new pg.Client({ connectionString: service.url });
      await client.connect();
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM "User"');
      await client.end();
      expect(Number(rows[0]!.n)).toBe(3);
    } finally {
      await service.stop();
    }
  }, 600_000);
});
