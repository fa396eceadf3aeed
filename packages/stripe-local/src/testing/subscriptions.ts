import type Stripe from 'stripe';

/** The $12 a month flat price most tests subscribe to (as the portal's Individual Monthly plan). */
export const createMonthlyPrice = (stripe: Stripe): Promise<Stripe.Price> =>
  stripe.prices.create({
    currency: 'usd',
    unit_amount: 1200,
    recurring: { interval: 'month' },
    product_data: { name: 'Individual Monthly' },
  });

/** A customer with the Visa test card, subscribed to `price` and paying it with that card. */
export async function subscribedCustomer(stripe: Stripe, price: Stripe.Price) {
  const customer = await stripe.customers.create({ payment_method: 'pm_card_visa' });
  const pm = (await stripe.paymentMethods.list({ customer: customer.id })).data[0]!;
  const sub = await stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id }],
    default_payment_method: pm.id,
  });
  return { customer, sub };
}
