import type { ChangePreviewView } from '@helix/shared/schemas/billing';
import { MSG } from '@helix/shared';
import { formatMoney, formatUnixDate } from './money';

/**
 * The confirm dialog's main sentence: what is charged when the buyer confirms. A trial that ends with
 * the change says so; a credit (a downgrade's unused time) is not a charge.
 */
export function dueNowText(
  preview: Pick<ChangePreviewView, 'amountDueNow' | 'trialEnds' | 'currency' | 'prorationAmount'>,
): string {
  const amount = formatMoney(preview.amountDueNow, preview.currency);
  if (preview.trialEnds) return MSG.trialEndsCharged(amount);
  if (preview.amountDueNow > 0) return MSG.chargedNowAmount(amount);
  if (preview.prorationAmount < 0)
    return MSG.creditedNow(formatMoney(-preview.prorationAmount, preview.currency));
  return MSG.nothingChargedNow;
}

/** 'Then $108.00 on April, 3rd 2026.' or null when nothing more will be charged. */
export function nextChargeText(preview: Pick<ChangePreviewView, 'nextCharge'>): string | null {
  const next = preview.nextCharge;
  if (!next || next.date === null || next.amount <= 0) return null;
  return MSG.nextChargeOn(formatMoney(next.amount, next.currency), formatUnixDate(next.date));
}

/** The confirm button: it names the amount when the buyer pays now. */
export const confirmLabel = (preview: Pick<ChangePreviewView, 'amountDueNow' | 'currency'>): string =>
  preview.amountDueNow > 0
    ? `Confirm and pay ${formatMoney(preview.amountDueNow, preview.currency)}`
    : 'Confirm';
