import { createRemoteJWKSet } from 'jose';

/**
 * The platforms' public keys (their JWKS), fetched with jose's remote key set: cached per keyset URL
 * for `cacheMaxAgeMs`, fetched again when a token names a kid the cache does not hold (a platform
 * that rotated its keys), but at most once per `cooldownMs`. One key set per URL per process, the
 * oldest dropped past MAX_SETS.
 */
export type PlatformKeySet = ReturnType<typeof createRemoteJWKSet>;

export interface PlatformKeyOptions {
  cooldownMs: number;
  cacheMaxAgeMs: number;
  timeoutMs: number;
}

const MAX_SETS = 1000;
const sets = new Map<string, { set: PlatformKeySet; options: string }>();

export function platformKeySet(keysetUrl: string, options: PlatformKeyOptions): PlatformKeySet {
  const signature = JSON.stringify(options);
  const known = sets.get(keysetUrl);
  if (known && known.options === signature) return known.set;
  const set = createRemoteJWKSet(new URL(keysetUrl), {
    cooldownDuration: options.cooldownMs,
    cacheMaxAge: options.cacheMaxAgeMs,
    timeoutDuration: options.timeoutMs,
    headers: { Accept: 'application/json' },
  });
  sets.delete(keysetUrl);
  sets.set(keysetUrl, { set, options: signature });
  if (sets.size > MAX_SETS) sets.delete(sets.keys().next().value!);
  return set;
}

/** Forget a platform's cached keys (its keyset URL changed or it was removed). */
export const forgetPlatformKeys = (keysetUrl: string): void => {
  sets.delete(keysetUrl);
};
