import type { Context } from '../core/context.ts';
import { emit } from '../core/events.ts';
import type { SubscriptionRecord } from '../core/records.ts';
import { nextDue, processDue } from './subscription-lifecycle.ts';

const MAX_STEPS = 100_000;

function subscriptionsOnClock(ctx: Context, clockId: string | null): SubscriptionRecord[] {
  return [...ctx.store.subscriptions.values()].filter((s) => (s.testClock ?? null) === clockId);
}

/**
 * Runs everything due up to `until` for the subscriptions on one test clock (or on real time when
 * `clockId` is null), in time order. On a clock, its frozen time steps to each moment so the objects
 * and events made there carry that time.
 */
export function runDue(ctx: Context, clockId: string | null, until: number): void {
  const clock = clockId ? ctx.store.testClocks.get(clockId) : undefined;
  for (let step = 0; step < MAX_STEPS; step++) {
    let next: { at: number; sub: SubscriptionRecord } | undefined;
    for (const sub of subscriptionsOnClock(ctx, clockId)) {
      const at = nextDue(ctx, sub);
      if (at !== null && at <= until && (!next || at < next.at)) next = { at, sub };
    }
    if (!next) break;
    if (clock) clock.frozenTime = Math.max(clock.frozenTime, next.at);
    processDue(ctx, next.sub, clock ? clock.frozenTime : until);
  }
  if (clock) clock.frozenTime = until;
}

/**
 * Advances a test clock: answers `advancing` at once (as Stripe does) and does the work just after;
 * then the clock is `ready` and `test_helpers.test_clock.ready` is sent.
 */
export function advanceClock(ctx: Context, clockId: string, to: number): void {
  const clock = ctx.store.testClocks.get(clockId);
  clock.status = 'advancing';
  clock.targetTime = to;
  const target = to;
  setTimeout(() => {
    try {
      runDue(ctx, clockId, target);
      clock.status = 'ready';
      clock.targetTime = null;
    } catch (error) {
      console.error(`[stripe-local] advancing ${clockId} failed:`, error);
      clock.status = 'internal_failure';
    }
    emit(
      ctx,
      clock.status === 'ready' ? 'test_helpers.test_clock.ready' : 'test_helpers.test_clock.internal_failure',
      clockId,
      { customer: null },
    );
  }, 10);
}

/** Real-time work (subscriptions without a test clock), checked every second. */
export function startRealTimeTicker(ctx: Context): () => void {
  const timer = setInterval(() => {
    try {
      runDue(ctx, null, ctx.realNow());
    } catch (error) {
      console.error('[stripe-local] scheduled work failed:', error);
    }
  }, 1000);
  timer.unref();
  return () => clearInterval(timer);
}
