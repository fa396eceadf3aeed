import type {
  ChargeRecord,
  CheckoutSessionRecord,
  CouponRecord,
  CustomerRecord,
  EventRecord,
  IdempotencyRecord,
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

/**
 * Told about every record handed out (it may be changed in place afterwards) and every removal, so the
 * journal can write what changed (core/journal.ts). Records are plain objects changed in place all over
 * the code; watching what is handed out is what catches every change without touching that code.
 */
export interface TableObserver {
  touch(table: string, row: { id: string }): void;
  remove(table: string, id: string): void;
}

/** One kind of record, in creation order (lists answer newest first, as Stripe does). */
export class Table<T extends { id: string; created: number }> {
  private readonly rows = new Map<string, T>();
  private observer: TableObserver | undefined;
  private name = '';

  constructor(readonly kind: string) {}

  observe(name: string, observer: TableObserver | undefined): void {
    this.name = name;
    this.observer = observer;
  }

  add(row: T): T {
    this.rows.set(row.id, row);
    this.observer?.touch(this.name, row);
    return row;
  }
  find(id: string): T | undefined {
    const row = this.rows.get(id);
    if (row) this.observer?.touch(this.name, row);
    return row;
  }
  /** The record, or Stripe's 404 `No such <kind>: '<id>'`. */
  get(id: string, param = 'id'): T {
    const row = this.find(id);
    if (!row || (row as { deleted?: boolean }).deleted) throw resourceMissing(this.kind, id, param);
    return row;
  }
  get size(): number {
    return this.rows.size;
  }
  delete(id: string): void {
    if (this.rows.delete(id)) this.observer?.remove(this.name, id);
  }
  /** Newest first; ties keep reverse insertion order. */
  all(): T[] {
    return [...this.values()].reverse().sort((a, b) => b.created - a.created);
  }
  /**
   * Newest first, for list endpoints only: the rows are not handed to the journal as touched, so a
   * caller must not change them (a list of thousands would otherwise be re-serialised on every call).
   */
  list(): T[] {
    return [...this.rows.values()].reverse().sort((a, b) => b.created - a.created);
  }
  *values(): IterableIterator<T> {
    for (const row of this.rows.values()) {
      this.observer?.touch(this.name, row);
      yield row;
    }
  }
  /** Every record, without telling the observer (the journal's own reads). */
  rawValues(): IterableIterator<T> {
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
  /** Answers stored for Idempotency-Key (core/http.ts), kept with the rest so a restart replays them. */
  readonly idempotencyKeys = new Table<IdempotencyRecord>('idempotency key');
  invoiceSequence = 0;
}
