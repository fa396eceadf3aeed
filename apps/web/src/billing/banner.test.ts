import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { deriveSubscriptionState } from '@helix/shared/subscription-state';
import { bannerFor, CLICK_HERE } from './banner';

const DAY = 86_400;
const now = Date.UTC(2026, 10, 23, 12) / 1000;
const state = (over: Parameters<typeof deriveSubscriptionState>[0]) =>
  deriveSubscriptionState(over, now * 1000);

describe('subscription banners', () => {
  it('says nothing for a running trial or a paid plan', () => {
    expect(bannerFor(state({ status: 'active', activePayment: true, hasPlan: true }))).toBeNull();
    expect(
      bannerFor(state({ status: 'trialing', activePayment: true, trialEnd: now + DAY, hasPlan: true })),
    ).toBeNull();
  });
  it('shows the payment-failed words with the link words in them', () => {
    const banner = bannerFor(state({ status: 'past_due', activePayment: false, hasPlan: true }));
    expect(banner).toEqual({ kind: 'payment_failed', text: MSG.paymentFailedBanner });
    expect(banner?.text).toContain(CLICK_HERE);
  });
  it('lists the reasons of a deactivation', () => {
    const banner = bannerFor(state({ status: 'deactivated', activePayment: false, hasPlan: true }));
    expect(banner?.kind).toBe('deactivated');
    expect(banner?.text).toBe(
      'Your subscription to the current plan has been deactivated because of any following reason:',
    );
    expect(banner && 'reasons' in banner ? banner.reasons : []).toHaveLength(2);
  });
  it('gives both dates of a cancellation as MMMM, Do YYYY', () => {
    const banner = bannerFor(
      state({
        status: 'canceled',
        activePayment: true,
        canceledAt: now,
        cancelAt: now + 8 * DAY,
        hasPlan: true,
      }),
    );
    expect(banner?.text).toBe(
      'You have canceled your subscription at November, 23rd 2026. Your subscription is valid till December, 1st 2026.',
    );
  });
});
