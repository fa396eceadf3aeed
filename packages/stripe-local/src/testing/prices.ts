import type Stripe from 'stripe';

/** The $12 a month flat price most tests subscribe to (as the portal's Individual Monthly plan). */
export const createMonthlyPrice = (stripe: Stripe): Promise<Stripe.Price> =>
  stripe.prices.create({
    currency: 'usd',
    unit_amount: 1200,
    recurring: { interval: 'month' },
    product_data: { name: 'Individual Monthly' },
  });
