import { EMBED_FLAGS, type EmbedFlag } from '@helix/shared';
import { tenantHasFeature } from '../plans/plan-features.policy.ts';
import type { EmbedRecord } from './embed-access.ts';

export interface EmbedBackground {
  /** The features the link shows at this load. */
  settings: EmbedFlag[];
  /** No backdrop: the host page shows around the model. */
  transparentBackground: boolean;
  /** The link asks for a transparent background that the plan no longer includes. */
  transparentFallback: boolean;
}

/**
 * The backdrop of a share/embed load, decided on every load (the detail call and the viewer lookup):
 * a link made with a transparent background keeps it while the tenant's plan includes
 * transparentBackgroundWebEmbeding; once it does not, the load falls back to the tenant's normal
 * background (its branding colour: background_color is switched on) and says so (transparentFallback).
 */
export function embedBackground(embed: EmbedRecord, now = new Date()): EmbedBackground {
  const settings = embed.settings.filter((f): f is EmbedFlag =>
    (EMBED_FLAGS as readonly string[]).includes(f),
  );
  if (!embed.transparentBackground) {
    return { settings, transparentBackground: false, transparentFallback: false };
  }
  if (tenantHasFeature(embed.tenant, 'transparentBackgroundWebEmbeding', now)) {
    // Exclusive with the other two backdrops (the schema refuses them together; older rows are cleaned).
    return {
      settings: settings.filter((f) => f !== 'background' && f !== 'background_color'),
      transparentBackground: true,
      transparentFallback: false,
    };
  }
  const withColour = new Set<EmbedFlag>([...settings, 'background_color']);
  withColour.delete('background');
  return {
    settings: EMBED_FLAGS.filter((f) => withColour.has(f)),
    transparentBackground: false,
    transparentFallback: true,
  };
}
