import type { Actor } from '@helix/server/sessions/session.service';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by auth(): who is calling. */
      actor?: Actor;
      /** Set by validate(): the parsed body, query or params. */
      input?: unknown;
    }
  }
}

export {};
