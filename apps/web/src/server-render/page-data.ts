import type { DehydratedState } from '@tanstack/react-query';
import { StoredSessionUser, type SessionUser } from '../session/session-user';
import { PAGE_DATA_ID } from './document';

/**
 * What a server-rendered page carries for the app (the home, the users list, the subscription page,
 * /choose-subscription): their query answers, and for a signed-in page whose they are.
 */
export interface PageData {
  tenant?: string;
  userId?: number;
  /** For a signed-in page: the session user it was rendered for. */
  user?: SessionUser;
  /** The page's query answers (TanStack Query's dehydrated state, src/api/query-client.ts). */
  queries?: DehydratedState;
}

/** A server-rendered page's data, or null when it has none or it is not what it should be. */
export function readPageData(doc: Document = document): PageData | null {
  const text = doc.getElementById(PAGE_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as Partial<PageData>;
    if (!data || typeof data !== 'object') return null;
    if (data.tenant !== undefined && typeof data.tenant !== 'string') return null;
    if (data.userId !== undefined && typeof data.userId !== 'number') return null;
    return {
      tenant: data.tenant,
      userId: data.userId,
      queries: queriesOf(data.queries),
      user: userOf(data.user),
    };
  } catch {
    return null;
  }
}

/** The session user a page carries, when it is one. */
function userOf(value: unknown): SessionUser | undefined {
  const parsed = StoredSessionUser.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** A page's dehydrated query state, when it is one. */
function queriesOf(value: DehydratedState | undefined): DehydratedState | undefined {
  return value && Array.isArray(value.queries) && Array.isArray(value.mutations) ? value : undefined;
}
