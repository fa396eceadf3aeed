import type { ViewerMode } from '@helix/shared';
import type { Config } from '../config.ts';
import { signModelFile } from './signing.ts';

/**
 * The viewer host's page for a model: `${VIEWER_URL}/?model=..&subscription=..&currentmode=..&version=..`,
 * plus `&viewer=..` (the share/embed page load's viewer token, which the viewer passes to the API).
 */
export function viewerPageUrl(
  config: Pick<Config, 'VIEWER_URL'>,
  model: { urlModelName: string; version: number },
  subscription: string,
  mode: ViewerMode,
  viewer?: string,
): string {
  const params = new URLSearchParams({
    model: model.urlModelName,
    subscription,
    currentmode: mode,
    version: String(model.version),
  });
  if (viewer) params.set('viewer', viewer);
  return `${config.VIEWER_URL.replace(/\/+$/, '')}/?${params.toString()}`;
}

/** The API's public origin (the viewer host is another origin, so its URLs are absolute). */
export const apiOrigin = (config: Pick<Config, 'PUBLIC_URL'>): string => new URL(config.PUBLIC_URL).origin;

/** A signed, short-lived URL of the model's .glb. */
export function signedModelFileUrl(
  config: Pick<Config, 'PUBLIC_URL' | 'SIGNING_SECRET'>,
  model: { id: number; version: number },
): string {
  const { exp, sig } = signModelFile(config.SIGNING_SECRET, model.id);
  return `${apiOrigin(config)}/api/files/models/${model.id}?v=${model.version}&exp=${exp}&sig=${sig}`;
}
