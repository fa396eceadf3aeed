import { Router, type Request, type Response } from 'express';
import { formatMoney } from '../billing/amounts.ts';
import { attemptInvoice } from '../billing/invoices.ts';
import { createCardPaymentMethod } from '../billing/payment-methods.ts';
import type { Context } from '../core/context.ts';
import { StripeError } from '../core/errors.ts';
import { formBody } from '../core/http.ts';
import type { InvoiceRecord } from '../core/records.ts';
import { textPdf } from './invoice-pdf.ts';
import { cardFields, esc, page, parseExpiry } from './layout.ts';

const date = (ts: number | null | undefined) => (ts ? new Date(ts * 1000).toISOString().slice(0, 10) : '');
const payable = (inv: InvoiceRecord) => inv.status === 'open' || inv.status === 'uncollectible';
const STATUS: Record<InvoiceRecord['status'], string> = {
  draft: 'Draft',
  open: 'Due',
  paid: 'Paid',
  uncollectible: 'Due',
  void: 'Void',
};

function invoicePage(ctx: Context, inv: InvoiceRecord, error: string | null): string {
  const customer = ctx.store.customers.find(inv.customer);
  const money = (n: number) => formatMoney(n, inv.currency);
  const lines = inv.lines
    .map(
      (l) => `<div class="line"><span>${esc(l.description)}</span><span>${esc(money(l.amount))}</span></div>`,
    )
    .join('');
  const discount = inv.discountAmount
    ? `<div class="line"><span>Discount</span><span>-${esc(money(inv.discountAmount))}</span></div>`
    : '';
  const due = inv.status === 'paid' ? inv.amountPaid : inv.status === 'void' ? 0 : inv.total;
  const state =
    inv.status === 'paid'
      ? `<p class="notice" data-testid="invoice-paid">Paid on ${esc(date(inv.paidAt))}. A receipt is available below.</p>`
      : inv.status === 'void'
        ? '<p class="notice" data-testid="invoice-void">This invoice was voided and is no longer payable.</p>'
        : `${error ? `<p class="error" data-testid="invoice-error">${esc(error)}</p>` : ''}
           <form method="post" action="/i/${esc(inv.id)}/pay">${cardFields()}
           <button type="submit" data-testid="invoice-pay">Pay ${esc(money(inv.total))}</button></form>`;
  return page(
    `Invoice ${inv.number}`,
    `<p class="muted">Invoice from stripe-local${customer?.email ? ` to ${esc(customer.email)}` : ''}</p>
    <h1>Invoice <span data-testid="invoice-number">${esc(inv.number)}</span></h1>
    <p class="muted">Status: <strong data-testid="invoice-status">${STATUS[inv.status]}</strong>
      · Period ${esc(date(inv.periodStart))} – ${esc(date(inv.periodEnd))}</p>
    <div class="total" data-testid="invoice-amount">${esc(money(due))}</div>
    ${lines}${discount}
    <div class="line"><strong>Total</strong><strong>${esc(money(inv.total))}</strong></div>
    ${state}
    <p class="muted"><a href="/i/${esc(inv.id)}/pdf" data-testid="invoice-pdf">Download invoice (PDF)</a></p>`,
  );
}

function invoicePdf(ctx: Context, inv: InvoiceRecord): Buffer {
  const customer = ctx.store.customers.find(inv.customer);
  const money = (n: number) => formatMoney(n, inv.currency);
  return textPdf([
    { text: inv.status === 'paid' ? 'Receipt' : 'Invoice', size: 22 },
    { text: `Invoice number ${inv.number}`, gap: 28 },
    { text: `Date of issue ${date(inv.finalizedAt ?? inv.created)}` },
    { text: `Status ${inv.status}${inv.paidAt ? ` (paid ${date(inv.paidAt)})` : ''}` },
    { text: `Bill to ${customer?.name ?? ''} ${customer?.email ?? ''}`.trim() },
    { text: `Period ${date(inv.periodStart)} to ${date(inv.periodEnd)}` },
    ...inv.lines.map((l, i) => ({ text: `${l.description}    ${money(l.amount)}`, gap: i === 0 ? 30 : 17 })),
    ...(inv.discountAmount ? [{ text: `Discount    -${money(inv.discountAmount)}` }] : []),
    { text: `Total    ${money(inv.total)}`, size: 13, gap: 28 },
    { text: `Amount paid    ${money(inv.amountPaid)}` },
    { text: 'stripe-local test mode: no money was moved.', size: 9, gap: 40 },
  ]);
}

/**
 * The hosted invoice page at an invoice's `hosted_invoice_url` (`/i/<id>`): the invoice with its number,
 * amount and status; an open (or uncollectible) invoice can be paid with a card, through the 3-D Secure
 * challenge when the card asks for it, and then shows as paid. The payment is the invoice's own
 * PaymentIntent, so the events are Stripe's (payment_intent.succeeded, invoice.paid,
 * invoice.payment_succeeded, customer.subscription.updated). `invoice_pdf` is `/i/<id>/pdf`.
 */
export function invoiceRouter(ctx: Context): Router {
  const router = Router();
  const load = (req: Request, res: Response) => {
    const inv = ctx.store.invoices.find(String(req.params.id));
    if (!inv || !inv.finalizedAt) {
      res
        .status(404)
        .send(page('Not found', '<h1>Invoice not found</h1><p>This invoice link is not valid.</p>'));
      return undefined;
    }
    return inv;
  };
  router.get('/i/:id', (req: Request, res: Response) => {
    const inv = load(req, res);
    if (!inv) return;
    // Back from a failed challenge: say why the payment did not go through.
    const pi = inv.paymentIntent ? ctx.store.paymentIntents.find(inv.paymentIntent) : undefined;
    const error = payable(inv) && req.query.attempt !== undefined ? (pi?.lastError?.message ?? null) : null;
    res.status(error ? 402 : 200).send(invoicePage(ctx, inv, error));
  });
  router.get('/i/:id/pdf', (req: Request, res: Response) => {
    const inv = load(req, res);
    if (!inv) return;
    res
      .type('application/pdf')
      .set('Content-Disposition', `inline; filename="Invoice-${inv.number}.pdf"`)
      .send(invoicePdf(ctx, inv));
  });
  router.post('/i/:id/pay', formBody, (req: Request, res: Response) => {
    const inv = load(req, res);
    if (!inv) return;
    if (!payable(inv)) return void res.redirect(303, `/i/${inv.id}`);
    const body = (req.body ?? {}) as Record<string, string | undefined>;
    const expiry = parseExpiry(body.cardExpiry ?? '');
    let pmId: string;
    try {
      pmId = createCardPaymentMethod(ctx, {
        number: body.cardNumber ?? '',
        expMonth: expiry.month,
        expYear: expiry.year,
        cvc: body.cardCvc ?? '',
        name: body.billingName || null,
        postalCode: body.postalCode || null,
      }).id;
    } catch (error) {
      if (error instanceof StripeError)
        return void res.status(402).send(invoicePage(ctx, inv, error.body.message));
      throw error;
    }
    const outcome = attemptInvoice(ctx, inv, { offSession: false, paymentMethod: pmId });
    if (outcome === 'requires_action')
      return void res.redirect(
        303,
        `/3ds/${inv.paymentIntent}?return=${encodeURIComponent(`/i/${inv.id}?attempt=1`)}`,
      );
    if (outcome === 'failed') {
      const pi = inv.paymentIntent ? ctx.store.paymentIntents.find(inv.paymentIntent) : undefined;
      return void res
        .status(402)
        .send(invoicePage(ctx, inv, pi?.lastError?.message ?? 'Your card was declined.'));
    }
    res.redirect(303, `/i/${inv.id}`);
  });
  return router;
}
