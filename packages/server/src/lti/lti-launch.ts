import { randomBytes } from 'node:crypto';
import { jwtVerify, type JWTPayload } from 'jose';
import {
  LTI_CLAIM,
  LTI_MESSAGE_TYPES,
  LTI_MODEL_PARAM,
  LtiDeepLinkingClaims,
  LtiResourceLinkClaims,
  type LtiLaunchRequest,
  type LtiLoginRequest,
} from '@helix/shared/schemas/lti';
import type { z } from 'zod';
import type { ServerDeps } from '../deps.ts';
import type { LtiPlatform } from '../db.ts';
import { redisKey } from '../redis.ts';
import { ltiError, ltiVerifyError } from './lti-errors.ts';
import { redirectsAtOnce } from './login-destination.ts';
import { platformKeySet } from './platform-keys.ts';

/**
 * OIDC login initiation and the launch (docs/lti.md). The login answers a redirect (or, for an unknown
 * destination of a school on trial, a page with a button: login-destination.ts) to the platform's
 * authorization endpoint with a new `state` and `nonce`, kept together in Redis for STATE_TTL_SECONDS
 * (server-side, not in a cookie: LMS pages frame the tool, and browsers that block third-party cookies
 * would lose a cookie). The launch takes the state once (GETDEL: a second launch with it is refused),
 * verifies the id_token with the platform's keys and checks that its nonce is the state's: a nonce
 * is valid for exactly one launch.
 */

export const STATE_TTL_SECONDS = 10 * 60;
/** Tokens older than this (iat) are refused even before they expire. */
const MAX_TOKEN_AGE_SECONDS = 10 * 60;
const CLOCK_TOLERANCE_SECONDS = 60;

interface LoginState {
  platformId: number;
  nonce: string;
  targetLinkUri: string;
}

const stateKey = (deps: ServerDeps, state: string) =>
  redisKey(deps.config.REDIS_PREFIX, 'lti', 'state', state);

/** The platform a login names: by issuer and client id (or the issuer's only registration). */
async function platformOfLogin(deps: ServerDeps, iss: string, clientId?: string): Promise<LtiPlatform> {
  if (clientId) {
    const platform = await deps.db.ltiPlatform.findUnique({
      where: { issuer_clientId: { issuer: iss, clientId } },
    });
    if (!platform) throw ltiError.unknownPlatform();
    return platform;
  }
  const platforms = await deps.db.ltiPlatform.findMany({ where: { issuer: iss }, take: 2 });
  if (platforms.length === 0) throw ltiError.unknownPlatform();
  if (platforms.length > 1) throw ltiError.askClientId();
  return platforms[0]!;
}

/**
 * GET/POST /api/lti/login: the platform's third-party login initiation. Answers the platform's
 * authorization URL with the OIDC parameters LTI 1.3 requires (response_mode form_post, prompt none).
 */
export async function startLtiLogin(
  deps: ServerDeps,
  input: z.output<typeof LtiLoginRequest>,
): Promise<{ redirect: string; atOnce: boolean }> {
  const platform = await platformOfLogin(deps, input.iss, input.client_id);
  const school = await deps.db.tenant.findUnique({
    where: { id: platform.tenantId },
    select: { isPlatform: true, subscription: { select: { status: true, activePayment: true } } },
  });
  if (!school) throw ltiError.unknownPlatform();
  if (input.lti_deployment_id !== undefined && !platform.deploymentIds.includes(input.lti_deployment_id)) {
    throw ltiError.unknownDeployment();
  }
  const state = randomBytes(24).toString('base64url');
  const nonce = randomBytes(24).toString('base64url');
  const record: LoginState = { platformId: platform.id, nonce, targetLinkUri: input.target_link_uri };
  await deps.redis.set(stateKey(deps, state), JSON.stringify(record), 'EX', STATE_TTL_SECONDS);
  const url = new URL(platform.authLoginUrl);
  const params: Record<string, string> = {
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: platform.clientId,
    redirect_uri: `${new URL(deps.config.PUBLIC_URL).origin}/api/lti/launch`,
    login_hint: input.login_hint,
    state,
    nonce,
  };
  if (input.lti_message_hint !== undefined) params.lti_message_hint = input.lti_message_hint;
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  // A 302 only where it cannot make Helix a redirector to any site (login-destination.ts).
  return { redirect: url.toString(), atOnce: redirectsAtOnce(platform, school) };
}

export type VerifiedLaunch =
  | { kind: 'resource'; platform: LtiPlatform; claims: LtiResourceLinkClaims & JWTPayload }
  | { kind: 'deep-link'; platform: LtiPlatform; claims: LtiDeepLinkingClaims & JWTPayload };

/** Takes the login's state once: null when unknown, expired or already used. */
async function takeState(deps: ServerDeps, state: string): Promise<LoginState | null> {
  const raw = await deps.redis.getdel(stateKey(deps, state));
  if (!raw) return null;
  return JSON.parse(raw) as LoginState;
}

/**
 * POST /api/lti/launch: the state (once), then the id_token: RS256 signed by a key of the platform's
 * JWKS, issued by the platform for this client id (aud, and azp when present or when aud names
 * several), not expired and at most MAX_TOKEN_AGE_SECONDS old, carrying the login's nonce, a
 * registered deployment id, LTI 1.3.0 and a message type Helix handles.
 */
export async function verifyLtiLaunch(
  deps: ServerDeps,
  input: z.output<typeof LtiLaunchRequest>,
): Promise<VerifiedLaunch> {
  const state = await takeState(deps, input.state);
  if (!state) throw ltiError.stateInvalid();
  const platform = await deps.db.ltiPlatform.findUnique({ where: { id: state.platformId } });
  if (!platform) throw ltiError.unknownPlatform();

  let payload: JWTPayload;
  try {
    const keys = platformKeySet(platform.keysetUrl, {
      cooldownMs: deps.config.LTI_JWKS_COOLDOWN_SECONDS * 1000,
      cacheMaxAgeMs: deps.config.LTI_JWKS_CACHE_SECONDS * 1000,
      timeoutMs: deps.config.LTI_JWKS_TIMEOUT_MS,
    });
    ({ payload } = await jwtVerify(input.id_token, keys, {
      algorithms: ['RS256'],
      issuer: platform.issuer,
      audience: platform.clientId,
      maxTokenAge: MAX_TOKEN_AGE_SECONDS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['iat', 'exp', 'nonce'],
    }));
  } catch (error) {
    throw ltiVerifyError(error);
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const azp = payload.azp;
  if ((audiences.length > 1 || azp !== undefined) && azp !== platform.clientId)
    throw ltiError.wrongAudience();
  if (payload.nonce !== state.nonce) throw ltiError.nonceInvalid();

  const deploymentId = payload[LTI_CLAIM.deploymentId];
  if (typeof deploymentId !== 'string' || !platform.deploymentIds.includes(deploymentId)) {
    throw ltiError.unknownDeployment();
  }
  const messageType = payload[LTI_CLAIM.messageType];
  if (!(LTI_MESSAGE_TYPES as readonly unknown[]).includes(messageType)) throw ltiError.messageUnsupported();
  if (messageType === 'LtiResourceLinkRequest') {
    const claims = LtiResourceLinkClaims.safeParse(payload);
    if (!claims.success) throw ltiError.tokenInvalid(claims.error);
    return { kind: 'resource', platform, claims: { ...payload, ...claims.data } };
  }
  const claims = LtiDeepLinkingClaims.safeParse(payload);
  if (!claims.success) throw ltiError.tokenInvalid(claims.error);
  return { kind: 'deep-link', platform, claims: { ...payload, ...claims.data } };
}

/**
 * The model a resource link opens: the custom parameter `helix_model` (what Helix's deep-linking
 * items carry), else `model` in the target link URI (a link an administrator set up by hand).
 */
export function launchedModelName(claims: LtiResourceLinkClaims): string | null {
  const custom = claims[LTI_CLAIM.custom]?.[LTI_MODEL_PARAM];
  if (typeof custom === 'string' && custom.trim()) return custom.trim();
  try {
    return new URL(claims[LTI_CLAIM.targetLinkUri]).searchParams.get('model')?.trim() || null;
  } catch {
    return null;
  }
}
