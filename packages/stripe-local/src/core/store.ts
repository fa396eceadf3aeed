import type {
  ChargeRecord,
  CheckoutSessionRecord,
  CouponRecord,
  CustomerRecord,
  EventRecord,
  InvoicePaymentRecord,
  InvoiceRecord,
  PaymentIntentRecord,
  PaymentMethodRecord,
  PortalSessionRecord,
  PriceRecord,
  ProductRecord,
  SetupIntentRecord,
  SubscriptionRecord,
  TestClockRecord,
  WebhookEndpointRecord,
} from './records.ts';
import { resourceMissing } from './errors.ts';

/** One kind of record, in creation order (lists answer newest first, as Stripe does). */
export class Table<T extends { id: string; created: number }> {
  private readonly rows = new Map<string, T>();

  constructor(readonly kind: string) {}

  add(row: T): T {
    this.rows.set(row.id, row);
    return row;
  }
  find(id: string): T | undefined {
    return this.rows.get(id);
  }
  /** The record, or Stripe's 404 `No such <kind>: '<id>'`. */
  get(id: string, param = 'id'): T {
    const row = this.rows.get(id);
    if (!row || (row as { deleted?: boolean }).deleted) throw resourceMissing(this.kind, id, param);
    return row;
  }
  get size(): number {
    return this.rows.size;
  }
  delete(id: string): void {
    this.rows.delete(id);
  }
  /** Newest first; ties keep reverse insertion order. */
  all(): T[] {
    return [...this.rows.values()].reverse().sort((a, b) => b.created - a.created);
  }
  values(): IterableIterator<T> {
    return this.rows.values();
  }
}

/** Every object the server holds (in memory: a restart starts empty unless a snapshot is loaded). */
export class Store {
  readonly customers = new Table<CustomerRecord>('customer');
  readonly products = new Table<ProductRecord>('product');
  readonly prices = new Table<PriceRecord>('price');
  readonly coupons = new Table<CouponRecord>('coupon');
  readonly paymentMethods = new Table<PaymentMethodRecord>('PaymentMethod');
  readonly setupIntents = new Table<SetupIntentRecord>('setupintent');
  readonly paymentIntents = new Table<PaymentIntentRecord>('payment_intent');
  readonly charges = new Table<ChargeRecord>('charge');
  readonly subscriptions = new Table<SubscriptionRecord>('subscription');
  readonly invoices = new Table<InvoiceRecord>('invoice');
  readonly invoicePayments = new Table<InvoicePaymentRecord>('invoice payment');
  readonly checkoutSessions = new Table<CheckoutSessionRecord>('checkout.session');
  readonly portalSessions = new Table<PortalSessionRecord>('billing_portal.session');
  readonly testClocks = new Table<TestClockRecord>('test_helpers.test_clock');
  readonly webhookEndpoints = new Table<WebhookEndpointRecord>('webhook_endpoint');
  readonly events = new Table<EventRecord>('event');
  invoiceSequence = 0;
}
