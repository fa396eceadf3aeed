import { sendUsageAlert, type UsageAlertDeps } from '@helix/server/views/usage-alert.command';
import type { JobHandler } from '../registry.ts';

/** usage-alert: the 80% / 100% views e-mail of one tenant's period, once (retried by the queue). */
export function usageAlertHandler(deps: UsageAlertDeps): JobHandler<'usage-alert'> {
  return (payload) => sendUsageAlert(deps, payload);
}
