import type { RequestHandler } from 'express';

/**
 * A stopping API process drains before it closes its port (main.ts, on SIGTERM): for SHUTDOWN_DRAIN_MS
 * the readiness check answers 503 `{ status: 'draining' }` (a load balancer's active check takes the
 * process out of rotation) and every answer carries `Connection: close`, so the proxy's kept-alive
 * connections end after their current request instead of being reused while the port closes. Requests
 * still arriving are served normally. docs/scale-out.md, "Draining".
 */
export class Draining {
  #since: number | null = null;

  /** From now on the process is draining (idempotent). */
  start(): void {
    this.#since ??= Date.now();
  }

  get active(): boolean {
    return this.#since !== null;
  }

  /** Adds `Connection: close` to every answer while draining. */
  middleware(): RequestHandler {
    return (_req, res, next) => {
      if (this.#since !== null) res.setHeader('Connection', 'close');
      next();
    };
  }
}
