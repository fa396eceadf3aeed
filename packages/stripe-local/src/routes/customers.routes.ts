import { attachPaymentMethod, resolvePaymentMethod } from '../billing/payment-methods.ts';
import { invalidRequest } from '../core/errors.ts';
import { changedFields, emit } from '../core/events.ts';
import { endpoint } from '../core/http.ts';
import { newId } from '../core/ids.ts';
import { createdFilter, listShape, matchesCreated, paginate } from '../core/list.ts';
import { clearable, mergeMetadata, metadata, obj, str } from '../core/params.ts';
import { renderCustomer } from '../core/render.ts';
import type { Context } from '../core/context.ts';

const invoiceSettings = obj({ default_payment_method: clearable(str()) });

const common = {
  email: clearable(str(512)),
  name: clearable(str(256)),
  description: clearable(str()),
  phone: clearable(str(20)),
  metadata: metadata(),
  invoice_settings: invoiceSettings,
};

function checkDefaultPaymentMethod(ctx: Context, customerId: string, pmId: string | null | undefined) {
  if (!pmId) return;
  const pm = ctx.store.paymentMethods.get(pmId, 'invoice_settings[default_payment_method]');
  if (pm.customer !== customerId)
    throw invalidRequest(
      `The customer does not have a payment method with the ID ${pmId}. The payment method must be attached to the customer.`,
      { code: 'resource_missing', param: 'invoice_settings[default_payment_method]' },
    );
}

export const customerEndpoints = [
  endpoint(
    'post',
    '/v1/customers',
    { shape: { ...common, test_clock: str(), payment_method: str() } },
    ({ ctx, params }) => {
      if (params.test_clock) ctx.store.testClocks.get(params.test_clock, 'test_clock');
      const customer = ctx.store.customers.add({
        id: newId('cus'),
        created: ctx.nowFor(params.test_clock),
        email: params.email ?? null,
        name: params.name ?? null,
        description: params.description ?? null,
        phone: params.phone ?? null,
        metadata: params.metadata ?? {},
        testClock: params.test_clock ?? null,
        defaultPaymentMethod: null,
        deleted: false,
      });
      try {
        if (params.payment_method)
          attachPaymentMethod(ctx, resolvePaymentMethod(ctx, params.payment_method), customer.id);
        const dpm = params.invoice_settings?.default_payment_method;
        if (dpm) {
          checkDefaultPaymentMethod(ctx, customer.id, dpm);
          customer.defaultPaymentMethod = dpm;
        }
      } catch (error) {
        ctx.store.customers.delete(customer.id);
        throw error;
      }
      emit(ctx, 'customer.created', customer.id);
      return renderCustomer(ctx, customer);
    },
  ),
  endpoint('get', '/v1/customers/:id', { shape: {} }, ({ ctx, path }) => {
    const customer = ctx.store.customers.find(path.id!);
    if (customer?.deleted) return renderCustomer(ctx, customer);
    return renderCustomer(ctx, ctx.store.customers.get(path.id!));
  }),
  endpoint('post', '/v1/customers/:id', { shape: common }, ({ ctx, params, path }) => {
    const customer = ctx.store.customers.get(path.id!);
    const before = renderCustomer(ctx, customer);
    const dpm = params.invoice_settings?.default_payment_method;
    checkDefaultPaymentMethod(ctx, customer.id, dpm);
    if (params.email !== undefined) customer.email = params.email;
    if (params.name !== undefined) customer.name = params.name;
    if (params.description !== undefined) customer.description = params.description;
    if (params.phone !== undefined) customer.phone = params.phone;
    customer.metadata = mergeMetadata(customer.metadata, params.metadata);
    if (dpm !== undefined) customer.defaultPaymentMethod = dpm;
    const after = renderCustomer(ctx, customer);
    const previous = changedFields(before, after);
    if (Object.keys(previous).length) emit(ctx, 'customer.updated', customer.id, { previous });
    return after;
  }),
  endpoint('delete', '/v1/customers/:id', { shape: {} }, ({ ctx, path }) => {
    const customer = ctx.store.customers.get(path.id!);
    for (const sub of ctx.store.subscriptions.values()) {
      if (sub.customer === customer.id && !['canceled', 'incomplete_expired'].includes(sub.status)) {
        sub.status = 'canceled';
        sub.endedAt = ctx.nowFor(customer.testClock);
        sub.canceledAt ??= sub.endedAt;
        emit(ctx, 'customer.subscription.deleted', sub.id);
      }
    }
    emit(ctx, 'customer.deleted', customer.id);
    customer.deleted = true;
    return { id: customer.id, object: 'customer', deleted: true };
  }),
  endpoint(
    'get',
    '/v1/customers',
    { shape: { ...listShape, email: str(512), test_clock: str(), created: createdFilter } },
    ({ ctx, params }) =>
      paginate(
        ctx,
        ctx.store.customers
          .list()
          .filter(
            (c) =>
              !c.deleted &&
              (params.email === undefined || c.email === params.email) &&
              (params.test_clock === undefined || c.testClock === params.test_clock) &&
              matchesCreated(c.created, params.created),
          ),
        params,
        '/v1/customers',
        renderCustomer,
      ),
  ),
];
