import type { JSONWebKeySet } from 'jose';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import { activeToolKey, publishedToolKeys } from './tool-keys.ts';

/**
 * GET /api/lti/jwks/:tenant: the school's public tool keys (the active one, made on first use, and
 * those retired within the grace period). Public by nature: platforms fetch it to check the school's
 * deep-linking answers. An unknown school (or the platform tenant) is a 404.
 */
export async function ltiJwks(db: Db, secret: string, domainPrefix: string): Promise<JSONWebKeySet> {
  const tenant = await db.tenant.findUnique({
    where: { domainPrefix },
    select: { id: true, isPlatform: true },
  });
  if (!tenant || tenant.isPlatform) throw AppError.notFound();
  await activeToolKey(db, secret, tenant.id);
  const keys = await publishedToolKeys(db, tenant.id);
  return { keys: keys.map((k) => k.publicJwk as JSONWebKeySet['keys'][number]) };
}
