import { hydrate, QueryClient, type DehydratedState, type Query } from '@tanstack/react-query';

/**
 * The answers a page came with from the server (hydrated into the browser's client below): fresh for
 * the components that show them first, so the app does not ask for them again as it starts; any
 * later mount asks the server again, as for every other answer.
 */
const serverAnswers = new WeakSet<Query>();

/**
 * The web app's one data layer (TanStack Query): every server read is a query in this client, so
 * loading, error and empty states come from one place, and a page the server rendered hands its
 * answers over as the client's dehydrated state (serverRenderedAnswers).
 *
 * Every mount asks again (staleTime 0) but for the server's answers above (`server`: the client of one
 * server render, src/server-render/render-route.server.tsx). Failures are not retried
 * here, and a read without network fails at once (networkMode 'always') rather than waiting: a page
 * meant for offline shows its saved answer then (offline/query-persister.ts), and the API client
 * already handles the session's own failures.
 */
export function createQueryClient(options: { server?: boolean } = {}): QueryClient {
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        // A server render asks nothing on its own: what it was seeded with is what it shows.
        staleTime: options.server ? Infinity : (query) => (serverAnswers.has(query) ? Infinity : 0),
        retry: false,
        networkMode: 'always',
        refetchOnWindowFocus: false,
      },
    },
  });
  // A server answer counts as fresh for its first component only (and React's StrictMode remount of
  // it in the same commit).
  client.getQueryCache().subscribe((event) => {
    if (event.type === 'observerAdded' && serverAnswers.has(event.query)) {
      setTimeout(() => serverAnswers.delete(event.query), 0);
    }
  });
  return client;
}

/** The browser app's client (the server makes one per render: src/server-render/render-route.server.tsx). */
export const queryClient = createQueryClient();

/** A server-rendered page's answers (its dehydrated state) into the browser's client. */
export function hydrateServerAnswers(state: DehydratedState, client: QueryClient = queryClient): void {
  hydrate(client, state);
  for (const { queryHash } of state.queries) {
    const query = client.getQueryCache().get(queryHash);
    if (query) serverAnswers.add(query);
  }
}
