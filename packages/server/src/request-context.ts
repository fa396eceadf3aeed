import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What follows a request wherever its work goes: the request id (X-Request-Id) is set by the API's
 * request logger for everything the request does, and the job producer copies it onto each job it
 * enqueues (JobQueue), so the worker's log lines for that job carry the same id.
 */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `work` (and everything it starts) inside the request's context. */
export const runInRequest = <T>(context: RequestContext, work: () => T): T => storage.run(context, work);

/** The current request's id, if the caller is inside one. */
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId;
