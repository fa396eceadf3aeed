import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { exportJWK, exportPKCS8, generateKeyPair, importPKCS8, type JWK } from 'jose';
import { LTI_KEY_GRACE_DAYS } from '@helix/shared/schemas/lti';
import type { Db, LtiToolKey } from '../db.ts';
import { withTransaction } from '../db/transaction.ts';
import { uniqueViolation } from '../prisma-errors.ts';

/**
 * The school's own RS256 key pair as an LTI tool (docs/lti.md, "Keys"). The private key is kept
 * encrypted with AES-256-GCM under a key derived from SIGNING_SECRET (HKDF, label 'lti-tool-key'):
 * a database copy alone signs nothing. At most one key per tenant is active (LtiToolKey.activeFor is
 * unique): the first caller that needs one makes it, a concurrent one reads the winner's.
 */

export const LTI_ALG = 'RS256';
const GRACE_MS = LTI_KEY_GRACE_DAYS * 24 * 3600 * 1000;

const wrappingKey = (secret: string): Buffer =>
  Buffer.from(hkdfSync('sha256', secret, 'helix', 'lti-tool-key', 32));

export function encryptPrivateKey(secret: string, pem: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', wrappingKey(secret), iv);
  const data = Buffer.concat([cipher.update(pem, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

export function decryptPrivateKey(secret: string, stored: string): string {
  const [iv = '', tag = '', data = ''] = stored.split('.');
  const decipher = createDecipheriv('aes-256-gcm', wrappingKey(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

async function newKeyRow(secret: string, tenantId: number) {
  const { publicKey, privateKey } = await generateKeyPair(LTI_ALG, {
    modulusLength: 2048,
    extractable: true,
  });
  const kid = randomBytes(16).toString('base64url');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: LTI_ALG, use: 'sig' };
  return {
    tenantId,
    kid,
    publicJwk: jwk as object,
    privateKeyEnc: encryptPrivateKey(secret, await exportPKCS8(privateKey)),
    activeFor: tenantId,
  };
}

/** The tenant's active key, made on first use. */
export async function activeToolKey(db: Db, secret: string, tenantId: number): Promise<LtiToolKey> {
  const existing = await db.ltiToolKey.findUnique({ where: { activeFor: tenantId } });
  if (existing) return existing;
  const data = await newKeyRow(secret, tenantId);
  try {
    return await db.ltiToolKey.create({ data });
  } catch (error) {
    if (!uniqueViolation(error)) throw error;
    return db.ltiToolKey.findUniqueOrThrow({ where: { activeFor: tenantId } });
  }
}

/**
 * A new active key; the previous one is retired and stays published for LTI_KEY_GRACE_DAYS. Rotations
 * of one tenant are serialized (a transaction-scoped advisory lock on the tenant): two at once would
 * each retire the key they saw and both insert an active one, and the second would meet the unique
 * activeFor. Serialized, each retires the one before it.
 */
export async function rotateToolKey(db: Db, secret: string, tenantId: number): Promise<LtiToolKey> {
  const data = await newKeyRow(secret, tenantId);
  return withTransaction(db, async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('lti-tool-key'), ${tenantId}::int)`;
    await tx.ltiToolKey.updateMany({
      where: { activeFor: tenantId },
      data: { activeFor: null, retiredAt: new Date() },
    });
    return tx.ltiToolKey.create({ data });
  });
}

/** The keys the tenant's JWKS publishes: the active one and those retired within the grace period. */
export async function publishedToolKeys(db: Db, tenantId: number, now = new Date()): Promise<LtiToolKey[]> {
  return db.ltiToolKey.findMany({
    where: {
      tenantId,
      OR: [{ activeFor: tenantId }, { retiredAt: { gt: new Date(now.getTime() - GRACE_MS) } }],
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** The private key of a stored key row, for signing. */
export const signingKeyOf = (secret: string, key: LtiToolKey) =>
  importPKCS8(decryptPrivateKey(secret, key.privateKeyEnc), LTI_ALG);
