import { MSG } from '@helix/shared';
import { BuyViewsForm, seatQuantity } from '@helix/shared/schemas/billing';

const isBlank = (value: unknown): boolean =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

/**
 * User count on a dynamic-quantity plan (accounts 5): a positive integer ('Only possitive integers are
 * allowed', the shared seat rule the API checks too) and at least the plan's userLimit.
 */
export function userCountError(value: unknown, userLimit: number): string | null {
  const parsed = seatQuantity.safeParse(typeof value === 'string' ? value : (value ?? ''));
  if (!parsed.success) return MSG.positiveIntegers;
  if (parsed.data < userLimit) return MSG.userCountMin(userLimit);
  return null;
}

/** The user count as a number once it is valid, else null. */
export function validUserCount(value: unknown, userLimit: number): number | null {
  if (userCountError(value, userLimit)) return null;
  return Number(value);
}

/**
 * Blocks of 1,000 views to buy (administration-content 9): nothing typed asks for a positive integer
 * ('Please add positive integer', the spec's fallback); anything else that is not a whole number of at
 * least 1 is refused by the shared rule with 'Only possitive integers are allowed'.
 */
export function viewBlocksError(value: unknown): string | null {
  if (isBlank(value)) return MSG.addPositiveInteger;
  // The field's only rule; the shared union answers 'Invalid input' for some strings, so not its text.
  return BuyViewsForm.safeParse({ quantity: value }).success ? null : MSG.positiveIntegers;
}
