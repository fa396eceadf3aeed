import { z } from 'zod';
import { MSG } from '../messages.ts';
import { requiredText } from './text.ts';

/**
 * POST /tenant/update (administration-content 4, 5, 7, 9): a tenant's branding and white label, as
 * multipart/form-data (images as file parts `brandLogo`, `modelLoadingLogo`, `modelBgLogo`) or JSON.
 * The web form validates with the same schema.
 */

/** The specification's defaults (administration-content 9): primary #5f51fb, text white, background white. */
export const BRANDING_DEFAULTS = {
  primaryColor: '#5f51fb',
  textColor: '#ffffff',
  backgroundColor: '#ffffff',
} as const;

/** Text on the primary colour: black or white only. */
export const TEXT_COLOURS = { black: '#000000', white: '#ffffff' } as const;

export const COLOUR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/**
 * A brand name is the {brand} of /login/{brand}: 2 to 40 lowercase letters, digits and single hyphens,
 * starting and ending with a letter or digit ('acme', 'city-college-2').
 */
export const BRAND_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,38}[a-z0-9]$/;

/** Words that would read as the portal's own pages under /login/{brand} or confuse support. */
export const RESERVED_BRAND_NAMES: ReadonlySet<string> = new Set([
  'admin',
  'api',
  'app',
  'helix',
  'login',
  'services',
  'signup',
  'support',
  'www',
]);

/**
 * A custom domain: a fully qualified host name (at least two labels of letters, digits and hyphens,
 * none starting or ending with a hyphen, a top-level label of letters or punycode), at most 253
 * characters, stored lower-cased. No scheme, port or path; not an IP address.
 */
export const DOMAIN_PATTERN =
  /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

const colour = z
  .string()
  .trim()
  .regex(COLOUR_PATTERN, { error: MSG.modelColourInvalid })
  .transform((v) => v.toLowerCase());

/** A boolean, or 'true'/'false'/'1'/'0' (multipart). */
const boolish = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
]);

/** An image as a data URL; '' or null: no new image (removal is the flag). */
const imageDataUrl = (max: number, message: string) =>
  z.string().max(max, { error: message }).nullable().optional();

export const BRANDING_IMAGE_FIELDS = ['brandLogo', 'modelLoadingLogo', 'modelBgLogo'] as const;
export type BrandingImageField = (typeof BRANDING_IMAGE_FIELDS)[number];

export const BrandingUpdate = z.strictObject({
  primaryColor: colour.default(BRANDING_DEFAULTS.primaryColor),
  textColor: z
    .enum([TEXT_COLOURS.black, TEXT_COLOURS.white], { error: MSG.textColourRule })
    .default(BRANDING_DEFAULTS.textColor),
  backgroundColor: colour.default(BRANDING_DEFAULTS.backgroundColor),
  customBrandName: requiredText(MSG.brandNameRequired, 40)
    .transform((v) => v.toLowerCase())
    .pipe(
      z
        .string()
        .regex(BRAND_NAME_PATTERN, { error: MSG.brandNameRule })
        .refine((v) => !RESERVED_BRAND_NAMES.has(v), { error: MSG.brandNameReserved }),
    ),
  /** '' or absent: no custom domain. */
  customDomainName: z
    .string()
    .trim()
    .max(253, { error: MSG.domainRule })
    .transform((v) => v.toLowerCase().replace(/\.$/, ''))
    .pipe(z.union([z.literal(''), z.string().regex(DOMAIN_PATTERN, { error: MSG.domainRule })]))
    .optional()
    .transform((v) => v || null),
  brandLogo: imageDataUrl(1_500_000, MSG.fileOver1mb),
  modelLoadingLogo: imageDataUrl(1_500_000, MSG.fileOver1mb),
  modelBgLogo: imageDataUrl(7_000_000, MSG.fileOver5mb),
  isBrandLogoRemove: boolish.default(false),
  isModelLoadingLogoRemove: boolish.default(false),
  isModelBgLogoRemove: boolish.default(false),
});
export type BrandingUpdate = z.input<typeof BrandingUpdate>;
export type BrandingUpdateInput = z.output<typeof BrandingUpdate>;
