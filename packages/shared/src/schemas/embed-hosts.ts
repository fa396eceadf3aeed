import { z } from 'zod';
import { MAX_EMBED_HOSTS, normalizeHostPattern } from '../embed-hosts.ts';
import { MSG } from '../messages.ts';

/**
 * A link's allowlist as the owner sends it (the Share/Embed dialog and the Links page check with it
 * too): each entry a domain or `*.domain` (../embed-hosts.ts), normalised to its stored form
 * (punycode, lower case); duplicates after normalisation are dropped; at most MAX_EMBED_HOSTS. An
 * empty list: any site.
 */
export const EmbedAllowedHosts = z
  .array(
    z
      .string()
      .max(300)
      .transform((value, ctx) => {
        const result = normalizeHostPattern(value);
        if (result.ok) return result.pattern;
        ctx.issues.push({ code: 'custom', message: result.message, input: value });
        return z.NEVER;
      }),
  )
  .max(MAX_EMBED_HOSTS, { error: MSG.embedHostsTooMany(MAX_EMBED_HOSTS) })
  .transform((patterns) => [...new Set(patterns)]);
export type EmbedAllowedHosts = z.input<typeof EmbedAllowedHosts>;

/**
 * Where a share or embed page is shown, as the page itself sees it (sent with the embed detail):
 * `ancestors` is `location.ancestorOrigins` (parent first) where the browser has it, `referrer` is
 * `document.referrer` (the embedding page's address or origin), `framed` whether the page is in a frame.
 */
export const EmbedHostContext = z.strictObject({
  ancestors: z.array(z.string().max(300)).max(20).optional(),
  referrer: z.string().max(2000).optional(),
  framed: z.boolean().optional(),
});
export type EmbedHostContext = z.input<typeof EmbedHostContext>;
