import { MailBrand } from '@helix/shared';
import { COLOUR_PATTERN } from '@helix/shared/schemas/branding';
import type { Db } from '../db.ts';
import { DEFAULT_BRANDING, type BrandingSource } from '../presenters/branding.presenter.ts';
import { imageUrl } from '../presenters/image-url.ts';

/** Helix's own look: platform mail, and mail of a tenant without a brand row. */
export const HELIX_MAIL_LOOK = {
  name: 'Helix',
  primaryColor: DEFAULT_BRANDING.primaryColor,
  textColor: DEFAULT_BRANDING.textColor,
} as const;

/**
 * The logo's absolute URL, only when it is the portal's own stored image (on PUBLIC_URL's origin): an
 * e-mail never makes the reader's mail client fetch an image from another host.
 */
export function mailLogoUrl(value: string | null | undefined, publicUrl: string): string | undefined {
  const origin = new URL(publicUrl).origin;
  const url = imageUrl(value, origin);
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.origin === origin ? parsed.toString() : undefined;
  } catch {
    return undefined;
  }
}

const colour = (value: string | null | undefined, fallback: string) =>
  value && COLOUR_PATTERN.test(value) ? value.toLowerCase() : fallback;

/**
 * The look of an e-mail to a user of `tenant`: the school's name, logo and colours, once the school
 * has made a look of its own (a logo, a brand name or a primary colour; the rule of the signed-in
 * header, apps/web/src/branding/tenant-look.ts). Undefined (Helix's look) for the platform tenant and
 * for a tenant that never set one, such as an individual subscriber (whose tenant bears their name).
 */
export function presentMailBrand(
  tenant: { name: string; isPlatform: boolean; customBrandName?: string | null },
  branding: BrandingSource | null | undefined,
  publicUrl: string,
): MailBrand | undefined {
  if (tenant.isPlatform) return undefined;
  const logoUrl = mailLogoUrl(branding?.brandLogo, publicUrl);
  const primaryColor = colour(branding?.primaryColor, HELIX_MAIL_LOOK.primaryColor);
  const ownLook = Boolean(logoUrl || tenant.customBrandName || primaryColor !== HELIX_MAIL_LOOK.primaryColor);
  if (!ownLook) return undefined;
  return MailBrand.parse({
    name: tenant.name.slice(0, 200) || HELIX_MAIL_LOOK.name,
    logoUrl,
    primaryColor,
    textColor: colour(branding?.textColor, HELIX_MAIL_LOOK.textColor),
  });
}

/** The look of e-mail to a user of the tenant `tenantId` (read when the e-mail is queued). */
export async function mailBrandOfTenant(
  db: Db,
  tenantId: number,
  publicUrl: string,
): Promise<MailBrand | undefined> {
  const tenant = await db.tenant.findUnique({
    where: { id: tenantId },
    select: { name: true, isPlatform: true, customBrandName: true, branding: true },
  });
  return tenant ? presentMailBrand(tenant, tenant.branding, publicUrl) : undefined;
}
