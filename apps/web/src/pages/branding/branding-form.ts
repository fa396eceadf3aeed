import type { TenantBrandingView } from '../../branding/branding.api';
import { imageValueOf, type ImageValue } from '../../components/image-picker/image-picker';

/** The branding form's values, the fields the server may report errors on, and a saved view as values. */
export interface BrandingFormValues {
  primaryColor: string;
  textColor: string;
  backgroundColor: string;
  customBrandName: string;
  customDomainName: string;
  brandLogo: ImageValue;
  modelBgLogo: ImageValue;
  modelLoadingLogo: ImageValue;
}

export const BRANDING_FIELDS = [
  'primaryColor',
  'textColor',
  'backgroundColor',
  'customBrandName',
  'customDomainName',
  'brandLogo',
  'modelBgLogo',
  'modelLoadingLogo',
] as const;

export const valuesOf = (b: TenantBrandingView): BrandingFormValues => ({
  primaryColor: b.primaryColor,
  textColor: b.textColor,
  backgroundColor: b.backgroundColor,
  customBrandName: b.customBrandName ?? '',
  customDomainName: b.customDomainName ?? '',
  brandLogo: imageValueOf(b.brandLogo),
  modelBgLogo: imageValueOf(b.modelBgLogo),
  modelLoadingLogo: imageValueOf(b.modelLoadingLogo),
});
