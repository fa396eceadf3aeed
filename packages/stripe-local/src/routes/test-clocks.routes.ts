import { advanceClock } from '../billing/scheduler.ts';
import { DAY } from '../billing/time.ts';
import { invalidRequest } from '../core/errors.ts';
import { emit } from '../core/events.ts';
import { endpoint } from '../core/http.ts';
import { newId } from '../core/ids.ts';
import { listShape, paginate } from '../core/list.ts';
import { int, req, str } from '../core/params.ts';
import { renderTestClock } from '../core/render.ts';

export const testClockEndpoints = [
  endpoint(
    'post',
    '/v1/test_helpers/test_clocks',
    { shape: { frozen_time: req(int(0)), name: str(300) } },
    ({ ctx, params }) => {
      const now = ctx.realNow();
      const clock = ctx.store.testClocks.add({
        id: newId('clock'),
        created: now,
        frozenTime: params.frozen_time,
        name: params.name ?? null,
        status: 'ready',
        targetTime: null,
        deletesAfter: now + 30 * DAY,
        deleted: false,
      });
      emit(ctx, 'test_helpers.test_clock.created', clock.id, { customer: null });
      return renderTestClock(ctx, clock);
    },
  ),
  endpoint('get', '/v1/test_helpers/test_clocks/:id', { shape: {} }, ({ ctx, path }) =>
    renderTestClock(ctx, ctx.store.testClocks.get(path.id!)),
  ),
  endpoint('get', '/v1/test_helpers/test_clocks', { shape: listShape }, ({ ctx, params }) =>
    paginate(
      ctx,
      ctx.store.testClocks.list().filter((c) => !c.deleted),
      params,
      '/v1/test_helpers/test_clocks',
      renderTestClock,
    ),
  ),
  endpoint(
    'post',
    '/v1/test_helpers/test_clocks/:id/advance',
    { shape: { frozen_time: req(int(0)) } },
    ({ ctx, params, path }) => {
      const clock = ctx.store.testClocks.get(path.id!);
      if (clock.status === 'advancing')
        throw invalidRequest(
          'The test clock is already advancing. Wait for it to be ready before advancing it again.',
          { code: 'test_clock_advancing' },
        );
      if (params.frozen_time <= clock.frozenTime)
        throw invalidRequest(
          'The test clock cannot be advanced to a time in the past or to its current time.',
          { param: 'frozen_time' },
        );
      advanceClock(ctx, clock.id, params.frozen_time);
      return renderTestClock(ctx, clock);
    },
  ),
  endpoint('delete', '/v1/test_helpers/test_clocks/:id', { shape: {} }, ({ ctx, path }) => {
    const clock = ctx.store.testClocks.get(path.id!);
    clock.deleted = true;
    // Deleting a clock deletes its customers (and so ends their subscriptions), as on Stripe.
    for (const customer of ctx.store.customers.values())
      if (customer.testClock === clock.id) customer.deleted = true;
    for (const sub of ctx.store.subscriptions.values())
      if (sub.testClock === clock.id) sub.status = 'canceled';
    return { id: clock.id, object: 'test_helpers.test_clock', deleted: true };
  }),
];
