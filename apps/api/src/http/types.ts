import type { Logger } from 'pino';
import type { Actor } from '@helix/server/sessions/session.service';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by auth(): who is calling. */
      actor?: Actor;
      /** Set by validate(): the parsed body, query or params. */
      input?: unknown;
      /** Set by requestLogger(): the request id (also the X-Request-Id answer header). */
      id?: string;
      /** Set by requestLogger(): a logger whose lines carry the request's id, method and URL. */
      log?: Logger;
    }
  }
}

export {};
