import type { ValidateUserResponse } from '@helix/shared';
import type { Db } from '../db.ts';

/** Sign-up's early check: is this e-mail address or username free? (Deleted users keep theirs.) */
export async function validateUser(
  db: Db,
  input: { email?: string; user_name?: string },
): Promise<ValidateUserResponse> {
  const answer: ValidateUserResponse = {};
  if (input.email !== undefined) {
    answer.email = (await db.user.count({ where: { email: input.email } })) > 0 ? 'taken' : 'available';
  }
  if (input.user_name !== undefined) {
    answer.user_name =
      (await db.user.count({ where: { userName: input.user_name } })) > 0 ? 'taken' : 'available';
  }
  return answer;
}
