import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import {
  LTI_PATHS,
  type LtiPlatformSave,
  type LtiPlatformView,
  type LtiSettings,
  type LtiToolView,
} from '@helix/shared/schemas/lti';
import type { z } from 'zod';
import { noteAudit } from '../audit/audit-context.ts';
import type { Config } from '../config.ts';
import type { Db, LtiPlatform, LtiToolKey } from '../db.ts';
import { withTransaction } from '../db/transaction.ts';
import { AppError } from '../errors.ts';
import { uniqueViolation } from '../prisma-errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeLti } from './lti.policy.ts';
import { forgetPlatformKeys } from './platform-keys.ts';
import { activeToolKey, publishedToolKeys, rotateToolKey } from './tool-keys.ts';

type SettingsConfig = Pick<Config, 'PUBLIC_URL' | 'SIGNING_SECRET' | 'NODE_ENV'>;

export const presentPlatform = (p: LtiPlatform): LtiPlatformView => ({
  id: p.id,
  name: p.name,
  issuer: p.issuer,
  clientId: p.clientId,
  deploymentIds: p.deploymentIds,
  authLoginUrl: p.authLoginUrl,
  tokenUrl: p.tokenUrl,
  keysetUrl: p.keysetUrl,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

/** The tool's addresses (absolute, from PUBLIC_URL) and the keys its JWKS publishes. */
export function presentTool(config: SettingsConfig, tenantPrefix: string, keys: LtiToolKey[]): LtiToolView {
  const origin = new URL(config.PUBLIC_URL).origin;
  return {
    loginUrl: `${origin}${LTI_PATHS.login}`,
    launchUrl: `${origin}${LTI_PATHS.launch}`,
    deepLinkUrl: `${origin}${LTI_PATHS.launch}`,
    jwksUrl: `${origin}${LTI_PATHS.jwks(tenantPrefix)}`,
    domain: new URL(config.PUBLIC_URL).host,
    keys: keys.map((k) => ({
      kid: k.kid,
      createdAt: k.createdAt.toISOString(),
      retiredAt: k.retiredAt?.toISOString() ?? null,
    })),
  };
}

/** GET /lti: the tool's addresses and keys (the key is made on first use) and the school's platforms. */
export async function ltiSettings(db: Db, config: SettingsConfig, actor: Actor): Promise<LtiSettings> {
  const { tenantId } = authorizeLti(actor);
  await activeToolKey(db, config.SIGNING_SECRET, tenantId);
  const [keys, platforms] = await Promise.all([
    publishedToolKeys(db, tenantId),
    db.ltiPlatform.findMany({ where: { tenantId }, orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
  ]);
  return {
    tool: presentTool(config, actor.tenant.domainPrefix, keys),
    platforms: platforms.map(presentPlatform),
  };
}

/**
 * POST /lti/platform/save: registers a platform or changes one of the school's. Outside development
 * and tests every address must be https (LTI 1.3 requires TLS). An issuer and client id registered
 * anywhere in Helix are refused (409): a launch must name exactly one school.
 */
export async function saveLtiPlatform(
  db: Db,
  config: SettingsConfig,
  actor: Actor,
  input: z.output<typeof LtiPlatformSave>,
): Promise<LtiPlatformView> {
  const { tenantId } = authorizeLti(actor);
  if (config.NODE_ENV === 'production') {
    const plain = (['issuer', 'authLoginUrl', 'tokenUrl', 'keysetUrl'] as const).find(
      (field) => new URL(input[field]).protocol !== 'https:',
    );
    if (plain) throw AppError.field(plain, MSG.ltiHttpsRequired, 400);
  }
  const { id, ...data } = input;
  try {
    const saved = await withTransaction(db, async (tx) => {
      if (id === undefined) {
        const created = await tx.ltiPlatform.create({ data: { ...data, tenantId } });
        noteAudit({ action: 'lti.platform.create', targetId: created.id });
        return created;
      }
      const before = await tx.ltiPlatform.findFirst({ where: { id, tenantId } });
      if (!before) throw AppError.notFound();
      const after = await tx.ltiPlatform.update({ where: { id }, data });
      noteAudit({ before: presentPlatform(before), after: presentPlatform(after) });
      if (before.keysetUrl !== after.keysetUrl) forgetPlatformKeys(before.keysetUrl);
      return after;
    });
    return presentPlatform(saved);
  } catch (error) {
    if (uniqueViolation(error)) {
      throw new AppError(ERROR_CODES.ltiPlatformTaken, {
        status: 409,
        message: MSG.ltiPlatformTaken,
        errors: { clientId: MSG.ltiPlatformTaken },
      });
    }
    throw error;
  }
}

/** POST /lti/platform/delete: its launches stop at once; its classes' views stay counted, unattributed. */
export async function deleteLtiPlatform(db: Db, actor: Actor, id: number): Promise<void> {
  const { tenantId } = authorizeLti(actor);
  await withTransaction(db, async (tx) => {
    const platform = await tx.ltiPlatform.findFirst({ where: { id, tenantId } });
    if (!platform) throw AppError.notFound();
    await tx.ltiPlatform.delete({ where: { id } });
    noteAudit({ before: presentPlatform(platform) });
    forgetPlatformKeys(platform.keysetUrl);
  });
}

/** POST /lti/key/rotate: a new key signs from now on; the old one stays published for the grace period. */
export async function rotateLtiKey(db: Db, config: SettingsConfig, actor: Actor): Promise<LtiToolView> {
  const { tenantId } = authorizeLti(actor);
  await rotateToolKey(db, config.SIGNING_SECRET, tenantId);
  return presentTool(config, actor.tenant.domainPrefix, await publishedToolKeys(db, tenantId));
}
