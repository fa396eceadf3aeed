import { sameSignature, sign } from '../models/signing.ts';

/**
 * The viewer credential of an LTI launch (docs/lti.md, "Launch"): what a pupil's viewer frame passes
 * as `subscription` in embedding mode instead of an embed token. Signed with SIGNING_SECRET (label
 * 'lti-viewer', so no other signature can stand for it) and short-lived (LTI_VIEWER_TTL_MINUTES):
 * relaunching from the course makes a new one. It names the school, the model, the course the view is
 * counted for, and the pupil (a hash of the platform's user id, never the id itself).
 */
const LABEL = 'lti-viewer';
export const LTI_TICKET_PREFIX = 'lti1.';
const SHAPE = /^lti1\.([A-Za-z0-9_-]{10,800})\.([A-Za-z0-9_-]{43})$/;

export interface LtiViewerTicket {
  /** Tenant id. */
  t: number;
  /** Model id. */
  m: number;
  /** LtiContext id (the course). */
  c: number;
  /** The pupil, as a keyed hash (22 characters). */
  v: string;
  /** 'i' when the launch's roles teach the course (Instructor, Administrator, ...): may start a live lesson. */
  r?: 'i';
  /** The user's name from the launch's claims (a live lesson's roster), when the platform shares it. */
  n?: string;
  /** Unix seconds. */
  exp: number;
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

export const isLtiViewerTicket = (subscription: string): boolean =>
  subscription.startsWith(LTI_TICKET_PREFIX);

export function signLtiViewerTicket(
  secret: string,
  ticket: Omit<LtiViewerTicket, 'exp'>,
  ttlSeconds: number,
): string {
  const body: LtiViewerTicket = { ...ticket, exp: Math.floor(Date.now() / 1000) + ttlSeconds };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${LTI_TICKET_PREFIX}${payload}.${sign(secret, LABEL, payload)}`;
}

/** The ticket's contents, or null when it is malformed, forged or expired. */
export function verifyLtiViewerTicket(secret: string, ticket: string): LtiViewerTicket | null {
  const match = SHAPE.exec(ticket);
  if (!match) return null;
  const [, payload = '', signature = ''] = match;
  if (!sameSignature(signature, sign(secret, LABEL, payload))) return null;
  let body: Partial<LtiViewerTicket>;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<LtiViewerTicket>;
  } catch {
    return null;
  }
  if (!isId(body.t) || !isId(body.m) || !isId(body.c) || typeof body.v !== 'string') return null;
  if (body.r !== undefined && body.r !== 'i') return null;
  if (body.n !== undefined && typeof body.n !== 'string') return null;
  if (!Number.isSafeInteger(body.exp) || (body.exp as number) < Math.floor(Date.now() / 1000)) return null;
  return body as LtiViewerTicket;
}

/** The pupil's stable identity for counting (once per pupil per model per view window). */
export const pupilKey = (secret: string, platformId: number, sub: string): string =>
  sign(secret, 'lti-pupil', `${platformId}\n${sub}`).slice(0, 22);
