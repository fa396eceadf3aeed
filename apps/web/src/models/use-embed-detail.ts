import { useEffect, useState } from 'react';
import { isPlausibleToken } from './share-links';
import { loadEmbedDetail, type EmbedDetailState, type PublicPage } from './load-embed-detail';

export type { EmbedDetailState } from './load-embed-detail';

/** The share page's embed detail (./load-embed-detail.ts) as React state. */
export function useEmbedDetail(token: string | undefined, page: PublicPage): EmbedDetailState {
  const [state, setState] = useState<EmbedDetailState>(
    isPlausibleToken(token) ? { status: 'loading' } : { status: 'unavailable' },
  );

  useEffect(() => {
    const controller = new AbortController();
    setState(isPlausibleToken(token) ? { status: 'loading' } : { status: 'unavailable' });
    void loadEmbedDetail(token, page, controller.signal).then((next) => {
      if (next) setState(next);
    });
    return () => controller.abort();
  }, [token, page]);

  return state;
}
