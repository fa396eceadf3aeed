import { BrandingView } from '@helix/shared/schemas/tenant';
import { baseApi } from '../api/client';

/**
 * POST /tenant/custom-branding-detail (no login): by brand name, or with none by this page's host (a
 * tenant's custom domain; 204, null, on a host without one). Quiet: an unknown brand simply shows the
 * Helix look. Its own module: the login page reads it, and must not download the branding editor's
 * outbox (Dexie) with it.
 */
export const fetchWhiteLabel = async (brandName: string | null): Promise<BrandingView | null> => {
  const answer = await baseApi.post<unknown>(
    '/tenant/custom-branding-detail',
    brandName ? { brandName } : {},
    { toast: false },
  );
  return answer === undefined ? null : BrandingView.parse(answer);
};
