import { ERROR_CODES } from '@helix/shared/error-codes';
import { MSG } from '@helix/shared';
import { seatQuantityIsValid, billedSeats } from '@helix/shared/plan-price';
import type { Db, Plan } from '../db.ts';
import { AppError } from '../errors.ts';
import type { Tx } from './tenant-billing.ts';

/** An active catalogue plan, or a 404 on `planId`; the seats checked against it (400 on `quantity`). */
export async function planAndSeats(
  tx: Db | Tx,
  planId: number,
  quantity: number | undefined,
  field = 'planId',
): Promise<{ plan: Plan; seats: number }> {
  const plan = await tx.plan.findFirst({ where: { id: planId, status: true } });
  if (!plan)
    throw new AppError(ERROR_CODES.planNotFound, {
      status: 404,
      message: MSG.choosePlan,
      errors: { [field]: MSG.choosePlan },
    });
  if (quantity !== undefined && !seatQuantityIsValid(plan, quantity)) {
    throw AppError.field('quantity', MSG.positiveIntegers, 400);
  }
  return { plan, seats: billedSeats(plan, quantity) };
}
