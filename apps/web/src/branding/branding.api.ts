import type { BrandingImageField } from '@helix/shared/schemas/branding';
import { TenantBrandingView } from '@helix/shared/schemas/tenant';
import { tenantApi } from '../api/client';
import { sendOrQueue, type EditResult } from '../offline/outbox';

export type { TenantBrandingView };

/** GET /tenant/get: the signed-in user's tenant branding. */
export const fetchBranding = async (): Promise<TenantBrandingView> =>
  TenantBrandingView.parse(await tenantApi.get<unknown>('/tenant/get', { toast: false }));

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

/**
 * A change with new or removed images goes as multipart (files are not queued offline); colours, brand
 * name and domain alone go through the outbox, based on the branding's version (If-Match).
 */
export async function saveBranding(
  change: BrandingChange,
  baseVersion: number,
): Promise<EditResult<TenantBrandingView>> {
  const withImages = Object.values(change.images).some(Boolean);
  if (withImages) {
    const data = TenantBrandingView.parse(
      await tenantApi.postForm<unknown>('/tenant/update', toBrandingFormData(change), {
        headers: { 'If-Match': String(baseVersion) },
      }),
    );
    return { status: 'sent', data };
  }
  const result = await sendOrQueue<unknown>({
    kind: 'branding.update',
    target: 'branding',
    label: `Branding: colours and brand name ${change.customBrandName}`,
    path: '/tenant/update',
    body: {
      primaryColor: change.primaryColor,
      textColor: change.textColor,
      backgroundColor: change.backgroundColor,
      customBrandName: change.customBrandName,
      customDomainName: change.customDomainName,
    },
    baseVersion,
  });
  return result.status === 'sent' ? { status: 'sent', data: TenantBrandingView.parse(result.data) } : result;
}
