import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { JobQueue } from '../queue/job-queue.ts';
import { registerDbPool, registerQueueDepth, registerViewBuffer } from './collectors.ts';
import { metricsRegistry, startProcessMetrics } from './metrics.ts';

const repoFile = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../../../${path}`, import.meta.url)), 'utf8');

/** The metric names a file's queries use (a histogram's _bucket, _count and _sum are its own name). */
const namesIn = (text: string) =>
  new Set([...text.matchAll(/\bhelix_[a-z0-9_]+/g)].map((m) => m[0].replace(/_(bucket|count|sum)$/, '')));

describe('the dashboard and the alert rules', () => {
  it('read only metrics the processes export', async () => {
    startProcessMetrics('api');
    registerQueueDepth({} as JobQueue);
    registerViewBuffer({} as Redis, 'x');
    registerDbPool({} as pg.Pool);
    const exported = new Set(metricsRegistry.getMetricsAsArray().map((m) => m.name));
    for (const file of ['ops/grafana/helix.json', 'ops/prometheus/alerts.yml']) {
      const unknown = [...namesIn(repoFile(file))].filter((name) => !exported.has(name));
      expect({ file, unknown }).toEqual({ file, unknown: [] });
    }
    expect(JSON.parse(repoFile('ops/grafana/helix.json')).panels.length).toBeGreaterThan(10);
  });
});
