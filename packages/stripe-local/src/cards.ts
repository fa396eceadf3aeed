import { createHash } from 'node:crypto';
import type { CardBehaviour } from './core/records.ts';

export interface TestCard {
  brand: string;
  behaviour: CardBehaviour;
  /** The decline code when a charge (or, for decline_always, any check) fails. */
  declineCode: string | null;
  funding: 'credit' | 'debit' | 'prepaid';
}

/**
 * Stripe's documented test cards (https://docs.stripe.com/testing). Any other number that passes the Luhn
 * check is treated as a plain card that succeeds, like Stripe's "any valid number" in test mode.
 */
export const TEST_CARDS: Record<string, TestCard> = {
  '4242424242424242': { brand: 'visa', behaviour: 'succeed', declineCode: null, funding: 'credit' },
  '4000056655665556': { brand: 'visa', behaviour: 'succeed', declineCode: null, funding: 'debit' },
  '5555555555554444': { brand: 'mastercard', behaviour: 'succeed', declineCode: null, funding: 'credit' },
  '378282246310005': { brand: 'amex', behaviour: 'succeed', declineCode: null, funding: 'credit' },
  '5200828282828210': { brand: 'mastercard', behaviour: 'succeed', declineCode: null, funding: 'debit' },
  '5105105105105100': { brand: 'mastercard', behaviour: 'succeed', declineCode: null, funding: 'prepaid' },
  '6011111111111117': { brand: 'discover', behaviour: 'succeed', declineCode: null, funding: 'credit' },
  '3056930009020004': { brand: 'diners', behaviour: 'succeed', declineCode: null, funding: 'credit' },
  '3566002020360505': { brand: 'jcb', behaviour: 'succeed', declineCode: null, funding: 'credit' },
  '6200000000000005': { brand: 'unionpay', behaviour: 'succeed', declineCode: null, funding: 'credit' },
  // 3D Secure 2 (and 1) required: the challenge on every payment.
  '4000000000003220': {
    brand: 'visa',
    behaviour: 'authenticate_always',
    declineCode: null,
    funding: 'credit',
  },
  '4000000000003063': {
    brand: 'visa',
    behaviour: 'authenticate_always',
    declineCode: null,
    funding: 'credit',
  },
  // 3-D Secure: required on every payment unless the card was set up for off-session use.
  '4000002500003155': {
    brand: 'visa',
    behaviour: 'authenticate_unless_setup',
    declineCode: null,
    funding: 'credit',
  },
  // 3-D Secure on every transaction, even off-session after set-up.
  '4000002760003184': {
    brand: 'visa',
    behaviour: 'authenticate_always',
    declineCode: null,
    funding: 'credit',
  },
  // Attaches and sets up; every charge declines with insufficient_funds.
  '4000000000009995': {
    brand: 'visa',
    behaviour: 'decline_on_charge',
    declineCode: 'insufficient_funds',
    funding: 'credit',
  },
  // Attaches to a customer; every charge then fails (generic decline).
  '4000000000000341': {
    brand: 'visa',
    behaviour: 'decline_on_charge',
    declineCode: 'generic_decline',
    funding: 'credit',
  },
  // Declined everywhere, including set-up and attach.
  '4000000000000002': {
    brand: 'visa',
    behaviour: 'decline_always',
    declineCode: 'generic_decline',
    funding: 'credit',
  },
  '4000000000009987': {
    brand: 'visa',
    behaviour: 'decline_always',
    declineCode: 'lost_card',
    funding: 'credit',
  },
  '4000000000009979': {
    brand: 'visa',
    behaviour: 'decline_always',
    declineCode: 'stolen_card',
    funding: 'credit',
  },
  // Radar blocks it: declined as fraudulent.
  '4100000000000019': {
    brand: 'visa',
    behaviour: 'decline_always',
    declineCode: 'fraudulent',
    funding: 'credit',
  },
};

/**
 * Stripe's test PaymentMethod ids, as its testing docs name them (https://docs.stripe.com/testing): each
 * use makes a new PaymentMethod with that card. The names this server used before are kept as aliases.
 */
export const TEST_PAYMENT_METHODS: Record<string, string> = {
  // Brands
  pm_card_visa: '4242424242424242',
  pm_card_visa_debit: '4000056655665556',
  pm_card_mastercard: '5555555555554444',
  pm_card_mastercard_debit: '5200828282828210',
  pm_card_mastercard_prepaid: '5105105105105100',
  pm_card_amex: '378282246310005',
  pm_card_discover: '6011111111111117',
  pm_card_diners: '3056930009020004',
  pm_card_jcb: '3566002020360505',
  pm_card_unionpay: '6200000000000005',
  // Declines
  pm_card_visa_chargeDeclined: '4000000000000002',
  pm_card_visa_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_visa_chargeDeclinedLostCard: '4000000000009987',
  pm_card_visa_chargeDeclinedStolenCard: '4000000000009979',
  pm_card_visa_chargeDeclinedFraudulent: '4100000000000019',
  pm_card_radarBlock: '4100000000000019',
  pm_card_chargeCustomerFail: '4000000000000341',
  // 3-D Secure
  pm_card_authenticationRequiredOnSetup: '4000002500003155',
  pm_card_authenticationRequired: '4000002760003184',
  pm_card_threeDSecure2Required: '4000000000003220',
  pm_card_threeDSecureRequired: '4000000000003063',
  // Aliases: the names stripe-local answered before.
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_chargeDeclinedLostCard: '4000000000009987',
  pm_card_chargeDeclinedStolenCard: '4000000000009979',
};

export const DECLINE_MESSAGES: Record<string, string> = {
  generic_decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  lost_card: 'Your card was declined.',
  stolen_card: 'Your card was declined.',
  fraudulent: 'Your card was declined.',
};

export function luhnValid(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let d = Number(number[i]);
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^6(011|5)/.test(number)) return 'discover';
  return 'unknown';
}

export function cardFor(number: string): TestCard {
  return (
    TEST_CARDS[number] ?? {
      brand: brandOf(number),
      behaviour: 'succeed',
      declineCode: null,
      funding: 'credit',
    }
  );
}

export const fingerprintOf = (number: string) =>
  createHash('sha256').update(`stripe-local:${number}`).digest('base64url').slice(0, 16);
