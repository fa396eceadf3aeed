import type { SubscriptionState } from '@helix/shared/subscription-state';
import { MSG } from '@helix/shared';
import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat';

dayjs.extend(advancedFormat);

/** Date display of accounts 9: 'MMMM, Do YYYY'. */
const bannerDate = (ms: number): string => dayjs(ms).format('MMMM, Do YYYY');

export type BannerView =
  | { kind: 'payment_failed'; text: string }
  | { kind: 'deactivated'; text: string; reasons: string[] }
  | { kind: 'cancelled'; text: string };

/** The banner of accounts 8 for this state, with its words; null when none applies. */
export function bannerFor(state: SubscriptionState): BannerView | null {
  switch (state.banner) {
    case 'payment_failed':
      return { kind: 'payment_failed', text: MSG.paymentFailedBanner };
    case 'deactivated':
      return {
        kind: 'deactivated',
        text: MSG.deactivatedBanner,
        reasons: [MSG.deactivatedReasonCancelled, MSG.deactivatedReasonPayment],
      };
    case 'cancelled': {
      if (state.cancelAt === null) return null;
      // The request date may be missing on an old record; the end date still tells the user the most.
      const at = state.canceledAt ?? state.cancelAt;
      return { kind: 'cancelled', text: MSG.cancelledBanner(bannerDate(at), bannerDate(state.cancelAt)) };
    }
    default:
      return null;
  }
}

/** The clickable words of the payment-failed banner (the link to the billing portal). */
export const CLICK_HERE = 'click here';
