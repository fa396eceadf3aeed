import { JOBS, USAGE_ALERT_THRESHOLDS, type UsageAlertPayload } from '@helix/shared';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import { redisKey } from '../redis.ts';
import type { BillingPeriod, ViewAllowance } from './allowance.ts';

/** What noteUsage needs of the producer (JobQueue has it). */
export interface UsageAlertQueue {
  enqueue(job: typeof JOBS.usageAlert, payload: UsageAlertPayload, jobId: string): Promise<void>;
}

interface NoteDeps {
  redis: Redis;
  prefix: string;
  jobs?: UsageAlertQueue;
  logger?: Logger;
}

/** The count at which a threshold (percent of the allowance) is reached. */
export const thresholdCount = (limit: number, threshold: number): number =>
  Math.ceil((limit * threshold) / 100);

/**
 * Gates already passed in this process (tenant, period, threshold): once a threshold is crossed, every
 * later load of the period would otherwise ask Redis again. Cleared when large; Redis and the
 * UsageAlert row still decide.
 */
const passed = new Set<string>();
const PASSED_MAX = 50_000;

/** A margin past the period's end for the Redis gate, so it outlives every load of the period. */
const GATE_MARGIN_SECONDS = 7 * 24 * 3600;

/**
 * Called after a load was counted (record-view.ts): when the period's count `total` has reached 80% or
 * 100% of the allowance, queue that threshold's usage-alert job, once. The first load past the
 * threshold wins a Redis SET NX gate (tenant, period start, threshold) and enqueues; concurrent loads,
 * other processes and later loads find the gate set. The gate is only a cheap filter: Redis keeps no
 * data here across a restart, so the job's UsageAlert row (sendUsageAlert) is what makes the e-mail
 * go out once per period and threshold. Never fails the load: a failure is logged, and the gate is
 * released so a later load tries again.
 */
export async function noteUsage(
  deps: NoteDeps,
  tenantId: number,
  period: BillingPeriod,
  allowance: Pick<ViewAllowance, 'limit'>,
  total: number,
): Promise<void> {
  if (!deps.jobs || allowance.limit <= 0) return;
  const startSeconds = Math.floor(period.start.getTime() / 1000);
  for (const threshold of USAGE_ALERT_THRESHOLDS) {
    if (total < thresholdCount(allowance.limit, threshold)) continue;
    const id = `${tenantId}-${startSeconds}-${threshold}`;
    const memo = `${deps.prefix}|${id}`;
    if (passed.has(memo)) continue;
    const gate = redisKey(deps.prefix, 'views', 'alert', id);
    try {
      const ttl = Math.max(60, Math.ceil((period.end.getTime() - Date.now()) / 1000)) + GATE_MARGIN_SECONDS;
      const won = await deps.redis.set(gate, '1', 'EX', ttl, 'NX');
      if (won === 'OK') {
        try {
          await deps.jobs.enqueue(
            JOBS.usageAlert,
            {
              tenantId,
              periodStart: period.start.toISOString(),
              periodEnd: period.end.toISOString(),
              threshold,
            },
            `usage-alert-${id}`,
          );
        } catch (error) {
          await deps.redis.del(gate).catch(() => undefined);
          throw error;
        }
      }
      if (passed.size >= PASSED_MAX) passed.clear();
      passed.add(memo);
    } catch (error) {
      deps.logger?.warn({ err: error, tenantId, threshold }, 'usage alert not queued (a later load retries)');
    }
  }
}
