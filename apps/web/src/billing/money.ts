import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat';

dayjs.extend(advancedFormat);

/** '$434.00', '-$5.25': an amount in cents of the given currency, as Stripe's invoices show it. */
export function formatMoney(cents: number, currency = 'usd'): string {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
      cents / 100,
    );
  } catch {
    // An unknown currency code: the number and the code.
    return `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
  }
}

/** 'March, 3rd 2026' (the app's date display, accounts 9) from unix seconds. */
export const formatUnixDate = (seconds: number): string => dayjs.unix(seconds).format('MMMM, Do YYYY');

/** 'Mar 3, 2026' for tables, from unix seconds. */
export const formatShortDate = (seconds: number): string => dayjs.unix(seconds).format('MMM D, YYYY');
