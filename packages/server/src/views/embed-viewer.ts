import type { Config } from '../config.ts';
import { sha256 } from '../tokens.ts';
import { clientNetwork } from './client-network.ts';
import type { ViewLoad } from './record-view.ts';
import { mintViewerToken, renewViewerToken, verifyViewerToken } from './viewer-token.ts';

/** The ceiling's period: views per address and link are counted per hour from the first one counted. */
export const CEILING_SECONDS = 3600;

type ViewerConfig = Pick<
  Config,
  | 'SIGNING_SECRET'
  | 'VIEW_WINDOW_SECONDS'
  | 'VIEWS_PER_ADDRESS_PER_HOUR'
  | 'VIEWS_PER_TENANT_ADDRESS_PER_HOUR'
>;

/**
 * The viewer token a share or embed page load is counted under (GET /api/viewer/model): the one the
 * viewer kept from its last load of the link, renewed, when it is still ours for the link and the
 * client's network (a reload stays one viewer); else the fresh one the page was drawn with (its server
 * render minted it, /share and /embed); undefined when there is neither (then the client's network is
 * the viewer, see embedViewerLoad).
 */
export function loadViewerToken(
  config: ViewerConfig,
  linkId: number,
  ip: string,
  sent: { kept?: string | undefined; viewer?: string | undefined },
): string | undefined {
  const kept = sent.kept
    ? renewViewerToken(
        config.SIGNING_SECRET,
        { linkId, network: clientNetwork(ip) },
        config.VIEW_WINDOW_SECONDS,
        sent.kept,
      )
    : null;
  return kept ?? sent.viewer;
}

/** The viewer token a share or embed page is drawn with (and the embed detail answers; viewer-token.ts). */
export const embedViewerToken = (config: ViewerConfig, linkId: number, ip: string, previous?: string) =>
  mintViewerToken(
    config.SIGNING_SECRET,
    { linkId, network: clientNetwork(ip) },
    config.VIEW_WINDOW_SECONDS,
    previous,
  );

/**
 * Who a share or embed load is, for counting (API.md, "Views"): the viewer of a valid viewer token for
 * this link and the client's network, else the client's network itself (a load without a valid token
 * counts at most once per address, link and view window, whatever `viewer` parameter it sends). Every
 * load of the link from that network is under two ceilings: at most VIEWS_PER_ADDRESS_PER_HOUR views
 * counted per hour for the link, and VIEWS_PER_TENANT_ADDRESS_PER_HOUR across all the school's links
 * (one address with twenty links counts no more than four classrooms); the rest are served but not
 * counted.
 */
export function embedViewerLoad(
  config: ViewerConfig,
  link: { id: number; modelId: number; tenantId: number },
  viewerToken: string | undefined,
  ip: string,
): ViewLoad {
  const network = clientNetwork(ip);
  const networkHash = sha256(network).slice(0, 32);
  const viewer = viewerToken
    ? verifyViewerToken(config.SIGNING_SECRET, viewerToken, { linkId: link.id, network })
    : null;
  return {
    modelId: link.modelId,
    viewerKey: `e:${link.id}`,
    source: 'embed',
    viewer: viewer ? `e:${link.id}:t:${viewer}` : `e:${link.id}:ip:${network}`,
    ceilings: [
      {
        scope: `${link.id}:${networkHash}`,
        max: config.VIEWS_PER_ADDRESS_PER_HOUR,
        seconds: CEILING_SECONDS,
      },
      {
        scope: `t${link.tenantId}:${networkHash}`,
        max: config.VIEWS_PER_TENANT_ADDRESS_PER_HOUR,
        seconds: CEILING_SECONDS,
      },
    ],
  };
}
