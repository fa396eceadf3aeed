import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { MSG } from '@helix/shared';
import {
  LTI_CLAIM,
  LTI_MODEL_PARAM,
  LTI_PATHS,
  type LtiDeepLinkingClaims,
  type LtiResourceLinkItem,
} from '@helix/shared/schemas/lti';
import type { ServerDeps } from '../deps.ts';
import type { LtiPlatform, Prisma } from '../db.ts';
import { visibleToTenant } from '../models/model.policy.ts';
import { apiOrigin } from '../models/viewer-urls.ts';
import { imageUrl } from '../presenters/image-url.ts';
import { redisKey } from '../redis.ts';
import { ltiError } from './lti-errors.ts';
import { ltiAutoPostPage, ltiPickerPage, type LtiPage } from './lti-pages.ts';
import { activeToolKey, LTI_ALG, rotateToolKey, signingKeyOf } from './tool-keys.ts';

/**
 * Deep linking (docs/lti.md): a teacher's LtiDeepLinkingRequest opens the picker; the choice goes
 * back to the platform as an LtiDeepLinkingResponse JWT signed with the school's tool key, holding one
 * ltiResourceLink per chosen model (custom parameter helix_model). Between the launch and the choice,
 * the request's settings are kept in Redis under a random session id for SESSION_TTL_SECONDS; the
 * choice takes them once.
 */

export const SESSION_TTL_SECONDS = 60 * 60;
/** Models the picker shows at once; the search narrows a larger catalogue. */
export const PICKER_MAX = 120;
const RESPONSE_TTL_SECONDS = 5 * 60;

interface DeepLinkSession {
  tenantId: number;
  platformId: number;
  deploymentId: string;
  returnUrl: string;
  data?: string;
  multiple: boolean;
  presentation: string[];
  frameAncestors: string[];
}

const sessionKey = (deps: ServerDeps, id: string) =>
  redisKey(deps.config.REDIS_PREFIX, 'lti', 'deep-link', id);

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** Who may frame the picker: the platform (its issuer, login and return addresses). */
const platformOrigins = (platform: LtiPlatform, returnUrl: string): string[] => [
  ...new Set(
    [platform.issuer, platform.authLoginUrl, returnUrl].map(originOf).filter((o): o is string => o !== null),
  ),
];

async function readSession(deps: ServerDeps, id: string, take: boolean): Promise<DeepLinkSession> {
  const key = sessionKey(deps, id);
  const raw = take ? await deps.redis.getdel(key) : await deps.redis.get(key);
  if (!raw) throw ltiError.deepLinkExpired();
  return JSON.parse(raw) as DeepLinkSession;
}

async function pickerModels(deps: ServerDeps, tenantId: number, q: string) {
  const tenant = await deps.db.tenant.findUnique({
    where: { id: tenantId },
    select: { name: true, isPlatform: true },
  });
  if (!tenant) throw ltiError.unknownPlatform();
  const where: Prisma.ModelWhereInput = {
    ...visibleToTenant(tenantId, tenant.isPlatform),
    fileKey: { not: null },
    ...(q ? { name: { contains: q, mode: 'insensitive' } } : {}),
  };
  const models = await deps.db.model.findMany({
    where,
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    take: PICKER_MAX + 1,
    select: { id: true, name: true, thumbnail: true },
  });
  return {
    schoolName: tenant.name,
    more: models.length > PICKER_MAX,
    models: models
      .slice(0, PICKER_MAX)
      .map((m) => ({ id: m.id, name: m.name, thumbnail: imageUrl(m.thumbnail) })),
  };
}

/** A verified deep-linking launch: keeps its settings and answers the picker. */
export async function startDeepLinking(
  deps: ServerDeps,
  platform: LtiPlatform,
  claims: LtiDeepLinkingClaims,
): Promise<LtiPage> {
  const settings = claims[LTI_CLAIM.deepLinkingSettings];
  if (!settings.accept_types.includes('ltiResourceLink')) throw ltiError.messageUnsupported();
  const id = randomBytes(24).toString('base64url');
  const session: DeepLinkSession = {
    tenantId: platform.tenantId,
    platformId: platform.id,
    deploymentId: claims[LTI_CLAIM.deploymentId],
    returnUrl: settings.deep_link_return_url,
    ...(settings.data !== undefined ? { data: settings.data } : {}),
    multiple: settings.accept_multiple !== false,
    presentation: settings.accept_presentation_document_targets,
    frameAncestors: platformOrigins(platform, settings.deep_link_return_url),
  };
  await deps.redis.set(sessionKey(deps, id), JSON.stringify(session), 'EX', SESSION_TTL_SECONDS);
  return ltiPickerPage({
    session: id,
    q: '',
    selected: [],
    multiple: session.multiple,
    frameAncestors: session.frameAncestors,
    ...(await pickerModels(deps, session.tenantId, '')),
  });
}

/** GET /api/lti/deep-link: the picker again, searched. */
export async function pickerAgain(
  deps: ServerDeps,
  id: string,
  { q = '', selected = [], error }: { q?: string; selected?: number[]; error?: string } = {},
): Promise<LtiPage> {
  const session = await readSession(deps, id, false);
  return ltiPickerPage({
    session: id,
    q: q.trim(),
    selected: session.multiple ? selected : selected.slice(0, 1),
    multiple: session.multiple,
    frameAncestors: session.frameAncestors,
    ...(error ? { error } : {}),
    ...(await pickerModels(deps, session.tenantId, q.trim())),
  });
}

/** The signing key of the school; a key that no longer decrypts (SIGNING_SECRET changed) is replaced. */
async function toolSigningKey(deps: ServerDeps, tenantId: number) {
  const secret = deps.config.SIGNING_SECRET;
  const key = await activeToolKey(deps.db, secret, tenantId);
  try {
    return { kid: key.kid, key: await signingKeyOf(secret, key) };
  } catch (error) {
    deps.logger.warn({ err: error, tenantId }, 'LTI tool key could not be decrypted: rotated');
    const fresh = await rotateToolKey(deps.db, secret, tenantId);
    return { kid: fresh.kid, key: await signingKeyOf(secret, fresh) };
  }
}

/**
 * POST /api/lti/deep-link: the teacher's choice (or cancel) as the signed answer the page posts back.
 * Nothing chosen shows the picker again with a message; a model no longer visible is left out.
 */
export async function answerDeepLinking(
  deps: ServerDeps,
  input: { session: string; model: number[]; cancel?: string | undefined },
): Promise<{ status: number; page: LtiPage }> {
  const peek = await readSession(deps, input.session, false);
  const cancel = input.cancel !== undefined;
  if (!cancel && input.model.length === 0) {
    return { status: 422, page: await pickerAgain(deps, input.session, { error: MSG.ltiPickNothing }) };
  }
  if (!cancel && !peek.multiple && input.model.length > 1) {
    return { status: 422, page: await pickerAgain(deps, input.session, { error: MSG.ltiPickOne }) };
  }
  const session = await readSession(deps, input.session, true);
  const platform = await deps.db.ltiPlatform.findFirst({
    where: { id: session.platformId, tenantId: session.tenantId },
  });
  if (!platform) throw ltiError.unknownPlatform();
  const tenant = await deps.db.tenant.findUniqueOrThrow({
    where: { id: session.tenantId },
    select: { isPlatform: true },
  });
  const models = cancel
    ? []
    : await deps.db.model.findMany({
        where: {
          id: { in: input.model },
          fileKey: { not: null },
          ...visibleToTenant(session.tenantId, tenant.isPlatform),
        },
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
        select: { name: true, urlModelName: true, thumbnail: true },
      });
  const origin = apiOrigin(deps.config);
  const iframe = session.presentation.includes('iframe') || !session.presentation.includes('window');
  const items: LtiResourceLinkItem[] = models.map((m) => {
    const thumbnail = imageUrl(m.thumbnail, origin);
    return {
      type: 'ltiResourceLink',
      title: m.name,
      url: `${origin}${LTI_PATHS.launch}`,
      custom: { [LTI_MODEL_PARAM]: m.urlModelName },
      ...(thumbnail ? { thumbnail: { url: thumbnail } } : {}),
      ...(iframe ? { iframe: { width: 960, height: 640 } } : { window: { targetName: '_blank' } }),
    };
  });
  const { kid, key } = await toolSigningKey(deps, session.tenantId);
  const jwt = await new SignJWT({
    nonce: randomBytes(16).toString('base64url'),
    [LTI_CLAIM.messageType]: 'LtiDeepLinkingResponse',
    [LTI_CLAIM.version]: '1.3.0',
    [LTI_CLAIM.deploymentId]: session.deploymentId,
    [LTI_CLAIM.contentItems]: items,
    ...(session.data !== undefined ? { [LTI_CLAIM.data]: session.data } : {}),
  })
    .setProtectedHeader({ alg: LTI_ALG, kid, typ: 'JWT' })
    .setIssuer(platform.clientId)
    .setAudience(platform.issuer)
    .setIssuedAt()
    .setExpirationTime(`${RESPONSE_TTL_SECONDS}s`)
    .sign(key);
  const message = cancel
    ? 'Nothing was added. Returning to your course…'
    : `Adding ${items.length === 1 ? items[0]!.title : `${items.length} models`} to your course…`;
  return {
    status: 200,
    page: ltiAutoPostPage(session.returnUrl, { JWT: jwt }, message, session.frameAncestors),
  };
}
