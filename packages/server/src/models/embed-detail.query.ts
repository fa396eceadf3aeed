import { MSG } from '@helix/shared';
import type { EmbedDetail } from '@helix/shared/schemas/model';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { presentBranding } from '../presenters/branding.presenter.ts';
import { embedAccess } from './embed-access.ts';
import { embedBackground } from './embed-background.ts';
import { apiOrigin, viewerPageUrl } from './viewer-urls.ts';

export type { EmbedDetail };

/**
 * POST /api/model/embed/detail (public): what the /share/{token} and /embed/{token} pages need. Any
 * token that may not show its model (malformed, unknown, revoked, model deleted or no longer visible,
 * tenant without an active plan) is the same 404.
 */
export async function embedDetail(deps: ServerDeps, token: string): Promise<EmbedDetail> {
  const access = await embedAccess(deps, token);
  if (!access.ok) throw AppError.notFound(MSG.embedLinkInvalid);
  const { embed } = access;
  const { tenant } = embed;
  const origin = apiOrigin(deps.config);
  const backdrop = embedBackground(embed);
  return {
    success: true,
    message: 'OK',
    error: null,
    user: { name: embed.creatorName },
    // The BrandingView of the tenant (as GET /tenant/get), its images as absolute URLs.
    branding: presentBranding(tenant, tenant.branding, origin),
    modelId: embed.model.id,
    modelName: embed.model.name,
    settings: backdrop.settings,
    url: viewerPageUrl(deps.config, embed.model, token, 'embedding'),
    transparentBackground: backdrop.transparentBackground,
    transparentFallback: backdrop.transparentFallback,
  };
}
