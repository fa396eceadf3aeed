import { MSG } from '@helix/shared';
import type { EmbedDetail } from '@helix/shared/schemas/model';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { presentBranding } from '../presenters/branding.presenter.ts';
import { embedAccess } from './embed-access.ts';
import { embedBackground } from './embed-background.ts';
import { embeddingAllowed, hostNotAllowed } from './embed-host.policy.ts';
import { embedViewerToken } from '../views/embed-viewer.ts';
import { apiOrigin, viewerPageUrl } from './viewer-urls.ts';

export type { EmbedDetail };

/**
 * POST /api/model/embed/detail (public): what the /share/{token} and /embed/{token} pages need, with
 * the page load's viewer token (minted here for the link and the client's address; `viewer`, the token
 * the page kept from its last load, keeps the same viewer when it is still ours for this link and
 * address) already in the viewer frame's URL. Any token that may not show its model (malformed,
 * unknown, revoked, model deleted or no longer visible, tenant without an active plan) is the same 404.
 * A link limited to some sites answers 403 EMBED_HOST_NOT_ALLOWED, with no viewer token, when the page
 * is not shown inside one of them (embed-host.policy.ts): such a load counts nothing.
 */
export async function embedDetail(
  deps: ServerDeps,
  request: {
    token: string;
    viewer?: string | undefined;
    host?: { ancestors?: string[] | undefined; referrer?: string | undefined; framed?: boolean | undefined };
  },
  client: { ip: string; fetchSite?: string | undefined },
): Promise<EmbedDetail> {
  const { token } = request;
  const access = await embedAccess(deps, token);
  if (!access.ok) throw AppError.notFound(MSG.embedLinkInvalid);
  const { embed } = access;
  if (!embeddingAllowed(deps.config, embed, { ...request.host, fetchSite: client.fetchSite })) {
    throw hostNotAllowed();
  }
  const { tenant } = embed;
  const origin = apiOrigin(deps.config);
  const backdrop = embedBackground(embed);
  const viewer = embedViewerToken(deps.config, embed.id, client.ip, request.viewer);
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
    url: viewerPageUrl(deps.config, embed.model, token, 'embedding', viewer),
    viewer,
    transparentBackground: backdrop.transparentBackground,
    transparentFallback: backdrop.transparentFallback,
  };
}
