import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './testing/harness.ts';
import { createMonthlyPrice } from './testing/subscriptions.ts';
import { submitForm } from './testing/hosted-form.ts';

let h: Harness;
let monthly: Stripe.Price;
beforeAll(async () => {
  h = await startHarness();
  monthly = await createMonthlyPrice(h.stripe);
});
afterAll(async () => {
  await h?.stop();
});

const card = (number: string) => ({ cardNumber: number, cardExpiry: '12 / 40', cardCvc: '123' });

/** An incomplete subscription's first invoice: open, $12, waiting for the customer. */
async function openInvoice(): Promise<Stripe.Invoice> {
  const customer = await h.stripe.customers.create({ email: 'school@example.com' });
  const sub = await h.stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: monthly.id }],
    payment_behavior: 'default_incomplete',
    expand: ['latest_invoice'],
  });
  return sub.latest_invoice as Stripe.Invoice;
}

const eventsFor = (invoice: string) =>
  h.receiver.events.filter((e) => {
    const o = e.data.object as { id?: string; invoice?: string | null };
    return o.id === invoice;
  });

describe('hosted invoice page', () => {
  it('shows an open invoice and takes a card payment; then shows it paid, with Stripe webhooks', async () => {
    const invoice = await openInvoice();
    expect(invoice.hosted_invoice_url).toBe(`${h.local.url}/i/${invoice.id}`);
    const html = await (await fetch(invoice.hosted_invoice_url!)).text();
    expect(html).toContain(invoice.number!);
    expect(html).toContain('$12.00');
    expect(html).toContain('data-testid="invoice-status">Due<');
    expect(html).toContain('data-testid="invoice-pay"');

    const declined = await submitForm(`${invoice.hosted_invoice_url}/pay`, card('4000000000009995'));
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card has insufficient funds.');

    const paid = await submitForm(`${invoice.hosted_invoice_url}/pay`, card('4242424242424242'));
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/i/${invoice.id}`);
    const after = await h.stripe.invoices.retrieve(invoice.id);
    expect(after.status).toBe('paid');
    expect(after.amount_paid).toBe(1200);
    const sub = await h.stripe.subscriptions.retrieve(
      invoice.parent!.subscription_details!.subscription as string,
    );
    expect(sub.status).toBe('active');
    const shown = await (await fetch(invoice.hosted_invoice_url!)).text();
    expect(shown).toContain('data-testid="invoice-status">Paid<');
    expect(shown).toContain('data-testid="invoice-paid"');
    expect(shown).not.toContain('data-testid="invoice-pay"');
    await h.receiver.waitFor(() =>
      ['invoice.paid', 'invoice.payment_succeeded'].every((t) =>
        eventsFor(invoice.id).some((e) => e.type === t),
      ),
    );
    await h.receiver.waitFor((events) =>
      events.some(
        (e) =>
          e.type === 'customer.subscription.updated' && (e.data.object as Stripe.Subscription).id === sub.id,
      ),
    );
  });

  it('goes through the 3-D Secure challenge: a failed one leaves it due, a passed one pays it', async () => {
    const invoice = await openInvoice();
    const challenge = await submitForm(`${invoice.hosted_invoice_url}/pay`, card('4000002760003184'));
    expect(challenge.status).toBe(303);
    const to = challenge.headers.get('location')!;
    expect(to).toMatch(/^\/3ds\/pi_/);
    const challengePage = await (await fetch(`${h.local.url}${to}`)).text();
    expect(challengePage).toContain('data-testid="three-ds-fail"');
    const secret = /name="client_secret" value="([^"]+)"/.exec(challengePage)![1]!;
    const piId = /\/3ds\/(pi_[^?]+)/.exec(to)![1]!;
    const back = decodeURIComponent(/return=([^&]+)/.exec(to)![1]!);

    const failed = await submitForm(`${h.local.url}/3ds/${piId}/fail`, {
      client_secret: secret,
      return: back,
    });
    expect(failed.headers.get('location')).toBe(back);
    const failedPage = await fetch(`${h.local.url}${back}`);
    expect(failedPage.status).toBe(402);
    expect(await failedPage.text()).toContain('failed authentication');
    expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe('open');

    const again = await submitForm(`${invoice.hosted_invoice_url}/pay`, card('4000002760003184'));
    const piAgain = /\/3ds\/(pi_[^?]+)/.exec(again.headers.get('location')!)![1]!;
    const page2 = await (await fetch(`${h.local.url}${again.headers.get('location')}`)).text();
    const secret2 = /name="client_secret" value="([^"]+)"/.exec(page2)![1]!;
    await submitForm(`${h.local.url}/3ds/${piAgain}/complete`, { client_secret: secret2, return: back });
    expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe('paid');
    expect(await (await fetch(invoice.hosted_invoice_url!)).text()).toContain('data-testid="invoice-paid"');
  });

  it('serves the invoice as a PDF at invoice_pdf, and 404 for an unknown invoice', async () => {
    const invoice = await openInvoice();
    expect(invoice.invoice_pdf).toBe(`${h.local.url}/i/${invoice.id}/pdf`);
    const pdf = await fetch(invoice.invoice_pdf!);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(bytes.startsWith('%PDF-1.4')).toBe(true);
    expect(bytes).toContain(`Invoice number ${invoice.number}`);
    expect(bytes).toContain('Total    $12.00');
    expect(bytes.trimEnd().endsWith('%%EOF')).toBe(true);
    expect((await fetch(`${h.local.url}/i/in_missing`)).status).toBe(404);
  });

  it('shows a voided invoice as not payable', async () => {
    const invoice = await openInvoice();
    await h.stripe.invoices.voidInvoice(invoice.id);
    const html = await (await fetch(invoice.hosted_invoice_url!)).text();
    expect(html).toContain('data-testid="invoice-void"');
    const paid = await submitForm(`${invoice.hosted_invoice_url}/pay`, card('4242424242424242'));
    expect(paid.status).toBe(303);
    expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe('void');
  });
});
