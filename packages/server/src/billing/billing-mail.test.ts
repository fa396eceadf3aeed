import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { renderBillingMail } from './billing-mail.ts';

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
