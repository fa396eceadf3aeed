import { MSG, type EmbedFlag, type LinkKind } from '@helix/shared';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { hasActivePlan } from '../views/allowance.ts';
import { actorHasFeature } from '../plans/plan-features.policy.ts';
import { newLinkToken } from './embed-link-token.ts';
import { isPlatformAdmin, visibleTo } from './model.policy.ts';

/**
 * POST /model/embed: a share/embed link for a model the caller may see, with the chosen viewer
 * features. Non-admins also need their plan's modelEmbed feature (in force). The token is unguessable
 * (derived from 32 random bytes, embed-link-token.ts) and names the tenant whose views and plan it uses.
 * Only its sha256 and its seed are stored; the Links page presents it again. `kind` records the page
 * it was made for (the token opens both). An expiry, when given, must lie ahead. A transparent background needs
 * Background.transparent and the plan's transparentBackgroundWebEmbeding (plan-features.policy.ts);
 * each load checks the plan again (viewer-model.query.ts). `allowedHosts` limits the sites whose pages
 * may show it (embed-host.policy.ts; empty: any site).
 */
export async function createEmbed(
  deps: ServerDeps,
  actor: Actor,
  input: {
    id: number;
    settings: EmbedFlag[];
    expiresAt?: string | null;
    transparentBackground?: boolean;
    kind?: LinkKind;
    /** Already normalised by the shared schema (EmbedAllowedHosts). */
    allowedHosts?: string[];
  },
  now = new Date(),
): Promise<{ token: string }> {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= now) throw AppError.field('expiresAt', MSG.linkExpiryPast, 400);
  if (!isPlatformAdmin(actor)) {
    const tenant = { ...actor.tenant, branding: null };
    if (!actor.tenant.subscription?.plan?.modelEmbed || !hasActivePlan(tenant)) {
      throw AppError.forbidden(MSG.embedNotInPlan);
    }
  }
  const transparentBackground = input.transparentBackground === true;
  if (transparentBackground && !actorHasFeature(actor, 'transparentBackgroundWebEmbeding', now)) {
    throw AppError.forbidden(MSG.transparentNotAllowed);
  }
  const model = await deps.db.model.findFirst({
    where: { id: input.id, ...visibleTo(actor) },
    select: { id: true },
  });
  if (!model) throw AppError.notFound();
  const { token, tokenSeed, tokenHash } = newLinkToken(deps.config.SIGNING_SECRET);
  await deps.db.embedToken.create({
    data: {
      tokenHash,
      tokenSeed,
      kind: input.kind ?? null,
      modelId: model.id,
      tenantId: actor.tenant.id,
      createdById: actor.user.id,
      settings: input.settings,
      expiresAt,
      transparentBackground,
      allowedHosts: input.allowedHosts ?? [],
    },
  });
  return { token };
}
