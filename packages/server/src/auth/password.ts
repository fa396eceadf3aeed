import { hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id: the package declares it as an ambient const enum, which isolatedModules cannot read. */
const ARGON2ID = 2;

/** argon2id with OWASP's recommended parameters (19 MiB, 2 passes). */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  // Users without a password (invited, Google-only) still cost one verification, so timing does not
  // reveal which addresses exist.
  const target = passwordHash ?? DUMMY_HASH;
  try {
    const ok = await verify(target, password);
    return passwordHash !== null && ok;
  } catch {
    return false;
  }
}

const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$q379qUulgddLqsdhfbX7cw$y3p6YWdsJhhGT58jt+y7WRK+DSDE0c8kr91rUVWnVkE';
