import { z } from 'zod';
import { MSG } from '../messages.ts';

/**
 * GET /api/oembed (oEmbed 1.0, https://oembed.com): a share or embed link as a `rich` embed for page
 * builders, learning platforms and chat tools (docs/links.md, "oEmbed").
 */

/** The frame oEmbed offers when the consumer sets no maximum (4:3, as the viewer's default view). */
const OEMBED_DEFAULT_SIZE = { width: 640, height: 480 } as const;
/** The only format served; any other is 501 Not Implemented, as the spec says. */
export const OEMBED_FORMAT = 'json';
/** The answer's cache_age (seconds), shortened to a link's expiry. */
export const OEMBED_CACHE_AGE = 3600;

const pixels = (name: string) =>
  z
    .string({ error: MSG.oembedSizeInvalid(name) })
    .regex(/^\d{1,6}$/, { error: MSG.oembedSizeInvalid(name) })
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, { error: MSG.oembedSizeInvalid(name) }),
    );

/**
 * The query. Not strict: consumers add parameters of their own (WordPress's `dnt`, cache busters) and
 * the spec lets providers ignore what they do not know. `format` is any text here: a format other than
 * json is answered 501 by the route, not 400. A `url` that is not an absolute http(s) address is a 400;
 * one that is not a link of ours is a 404.
 */
export const OEmbedQuery = z.object({
  url: z
    .string({ error: MSG.oembedUrlRequired })
    .trim()
    .min(1, { error: MSG.oembedUrlRequired })
    .max(2000, { error: MSG.oembedUrlInvalid })
    .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), { error: MSG.oembedUrlInvalid }),
  maxwidth: pixels('maxwidth').optional(),
  maxheight: pixels('maxheight').optional(),
  format: z.string().max(40).optional(),
});
export type OEmbedQuery = z.input<typeof OEmbedQuery>;

/**
 * The answer: a `rich` embed (spec 2.3.4) whose html is the embed link's iframe, sized within
 * maxwidth/maxheight at the default frame's proportions. The thumbnail (all three fields or none) is
 * given only when its size is known and fits the maximums.
 */
export const OEmbedResponse = z.strictObject({
  type: z.literal('rich'),
  version: z.literal('1.0'),
  /** The model's name. */
  title: z.string(),
  /** The school (the link's tenant, by its brand name). */
  author_name: z.string(),
  provider_name: z.string(),
  provider_url: z.string(),
  /** Seconds a consumer may cache this answer. */
  cache_age: z.number().int().min(0),
  thumbnail_url: z.string().optional(),
  thumbnail_width: z.number().int().min(1).optional(),
  thumbnail_height: z.number().int().min(1).optional(),
  html: z.string(),
  width: z.number().int().min(1),
  height: z.number().int().min(1),
});
export type OEmbedResponse = z.output<typeof OEmbedResponse>;

/** The largest frame of the default's proportions within the consumer's maximums (at least 1 x 1). */
export function oembedFrameSize(maxwidth?: number, maxheight?: number): { width: number; height: number } {
  const { width, height } = OEMBED_DEFAULT_SIZE;
  const scale = Math.min(1, (maxwidth ?? width) / width, (maxheight ?? height) / height);
  return {
    width: Math.max(1, Math.floor(width * scale)),
    height: Math.max(1, Math.floor(height * scale)),
  };
}
