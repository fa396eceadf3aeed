import { Prisma } from './db.ts';

/**
 * When `error` is a unique-constraint violation (P2002), the constraint it hit (e.g. 'User_email_key'
 * or the field list), else null. Over the pg adapter the detail sits in meta.driverAdapterError.
 */
export function uniqueViolation(error: unknown): string | null {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') return null;
  return JSON.stringify(error.meta ?? {});
}

/** Whether a unique violation concerns `model.field` (by Prisma's constraint name `Model_field_key`). */
export const violates = (detail: string | null, model: string, field: string): boolean =>
  detail !== null && (detail.includes(`${model}_${field}_key`) || detail.includes(`"${field}"`));
