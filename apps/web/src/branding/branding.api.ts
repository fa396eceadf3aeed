import type { BrandingImageField } from '@helix/shared/schemas/branding';
import { BrandingView } from '@helix/shared/schemas/tenant';
import { baseApi, tenantApi } from '../api/client';

export type { BrandingView };

/** GET /tenant/get: the signed-in user's tenant branding. */
export const fetchBranding = async (): Promise<BrandingView> =>
  BrandingView.parse(await tenantApi.get<unknown>('/tenant/get', { toast: false }));

/**
 * POST /tenant/custom-branding-detail (no login): by brand name, or with none by this page's host (a
 * tenant's custom domain; 204, null, on a host without one). Quiet: an unknown brand simply shows the
 * Helix look.
 */
export const fetchWhiteLabel = async (brandName: string | null): Promise<BrandingView | null> => {
  const answer = await baseApi.post<unknown>(
    '/tenant/custom-branding-detail',
    brandName ? { brandName } : {},
    { toast: false },
  );
  return answer === undefined ? null : BrandingView.parse(answer);
};

export interface BrandingChange {
  primaryColor: string;
  textColor: string;
  backgroundColor: string;
  customBrandName: string;
  customDomainName: string;
  images: Partial<Record<BrandingImageField, File | 'remove'>>;
}

const REMOVE_FLAG: Record<BrandingImageField, string> = {
  brandLogo: 'isBrandLogoRemove',
  modelLoadingLogo: 'isModelLoadingLogoRemove',
  modelBgLogo: 'isModelBgLogoRemove',
};

/** The multipart body of POST /tenant/update: images as file parts, a remove flag per image. */
export function toBrandingFormData(change: BrandingChange): FormData {
  const form = new FormData();
  form.append('primaryColor', change.primaryColor);
  form.append('textColor', change.textColor);
  form.append('backgroundColor', change.backgroundColor);
  form.append('customBrandName', change.customBrandName);
  form.append('customDomainName', change.customDomainName);
  for (const [field, value] of Object.entries(change.images) as [
    BrandingImageField,
    File | 'remove' | undefined,
  ][]) {
    if (value === 'remove') form.append(REMOVE_FLAG[field], 'true');
    else if (value) form.append(field, value, value.name);
  }
  return form;
}

export const saveBranding = async (change: BrandingChange): Promise<BrandingView> =>
  BrandingView.parse(await tenantApi.postForm<unknown>('/tenant/update', toBrandingFormData(change)));
