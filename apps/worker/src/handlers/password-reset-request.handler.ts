import type { ServerDeps } from '@helix/server/deps';
import { issuePasswordReset } from '@helix/server/accounts/password-reset.command';
import type { JobHandler } from '../registry.ts';

/**
 * password-reset-request: the forgot-password lookup, off the API request so that its answer and timing
 * do not tell a known address from an unknown one. A known user's token and send-email job are made
 * here (retried by the queue on failure).
 */
export function passwordResetRequestHandler(
  deps: Pick<ServerDeps, 'db' | 'queue' | 'config' | 'redis'>,
): JobHandler<'password-reset-request'> {
  return async (payload) => {
    await issuePasswordReset(deps, payload);
  };
}
