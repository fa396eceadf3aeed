import { MSG, type EmbedFlag } from '@helix/shared';
import type { BrandingView } from '@helix/shared/schemas/tenant';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { DEFAULT_BRANDING } from '../presenters/branding.presenter.ts';
import { imageUrl } from '../presenters/image-url.ts';
import { embedAccess } from './embed-access.ts';
import { apiOrigin, viewerPageUrl } from './viewer-urls.ts';

export interface EmbedDetail {
  success: true;
  message: string;
  error: null;
  user: { name: string };
  branding: BrandingView;
  modelId: number;
  settings: EmbedFlag[];
  url: string;
}

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
  const branding = tenant.branding;
  const origin = apiOrigin(deps.config);
  return {
    success: true,
    message: 'OK',
    error: null,
    user: { name: embed.creatorName },
    // The BrandingView of the tenant (as GET /tenant/get), its images as absolute URLs.
    branding: {
      tenant: tenant.domainPrefix,
      name: tenant.name,
      customBrandName: tenant.customBrandName,
      customDomainName: tenant.customDomainName,
      primaryColor: branding?.primaryColor ?? DEFAULT_BRANDING.primaryColor,
      textColor: branding?.textColor ?? DEFAULT_BRANDING.textColor,
      backgroundColor: branding?.backgroundColor ?? DEFAULT_BRANDING.backgroundColor,
      brandLogo: imageUrl(branding?.brandLogo, origin),
      modelBgLogo: imageUrl(branding?.modelBgLogo, origin),
      modelLoadingLogo: imageUrl(branding?.modelLoadingLogo, origin),
    },
    modelId: embed.model.id,
    settings: embed.settings as EmbedFlag[],
    url: viewerPageUrl(deps.config, embed.model, token, 'embedding'),
  };
}
