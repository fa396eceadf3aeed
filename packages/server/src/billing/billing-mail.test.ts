import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { renderActionRequiredMail, renderBillingMail, renderReceiptMail } from './billing-mail.ts';

describe('billing e-mails', () => {
  it('payment failed: the banner text and a link to the subscription page, names escaped in HTML', () => {
    const mail = renderBillingMail('payment-failed', {
      name: '<b>Ada</b>',
      link: 'https://portal.example/user/settings/subscription',
      planName: 'Educator Monthly',
    });
    expect(mail.subject).toBe('Your Helix payment has failed');
    expect(mail.text).toContain(MSG.paymentFailedBanner);
    expect(mail.text).toContain('https://portal.example/user/settings/subscription');
    expect(mail.html).toContain('&lt;b&gt;Ada&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Ada</b>');
  });

  it('trial ending: names the plan and the end date', () => {
    const mail = renderBillingMail('trial-ending', {
      name: 'Ada',
      link: 'https://portal.example/user/settings/subscription',
      planName: 'Individual Monthly',
      trialEnd: new Date('2026-12-24T10:00:00Z'),
    });
    expect(mail.subject).toBe('Your Helix trial ends soon');
    expect(mail.text).toContain('Individual Monthly ends on Thu, 24 Dec 2026');
  });
});

describe('receipt and payment to confirm', () => {
  it('are drawn in the one mail layout with their button and link', () => {
    const receipt = renderReceiptMail({
      name: 'Ada',
      amountPaid: 9900,
      currency: 'usd',
      number: 'INV-1',
      paidAt: Date.UTC(2026, 11, 1) / 1000,
      periodStart: null,
      periodEnd: null,
      description: null,
      link: 'https://invoice.example/i/1',
    });
    expect(receipt.subject).toBe('Your Helix receipt INV-1: $99.00 paid');
    expect(receipt.text).toContain('Thank you for your payment of $99.00 on 01 Dec 2026.');
    expect(receipt.html).toContain('Sent by Helix.');
    expect(receipt.html).toMatch(/<a href="https:\/\/invoice\.example\/i\/1"[^>]*>View the invoice<\/a>/);
    const action = renderActionRequiredMail({
      name: 'Ada',
      amountDue: 500,
      currency: 'eur',
      planName: 'Educator Monthly',
      link: 'https://invoice.example/i/2',
    });
    expect(action.text).toContain('confirm the payment of EUR 5.00 for your Educator Monthly plan');
    expect(action.html).toMatch(/<a href="https:\/\/invoice\.example\/i\/2"[^>]*>Complete the payment<\/a>/);
  });
});
