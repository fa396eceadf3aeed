import { lazy, Suspense, useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { useEmbedDetail } from '../../models/use-embed-detail';
import { PageTitle } from '../../ui/page-title';
import { ModelFrame, PublicLoading } from './model-frame';
import './share.css';

// The unavailable page is built with antd (with its theme): downloaded only when a link fails.
const LinkUnavailable = lazy(() =>
  import('./link-unavailable').then((m) => ({ default: m.LinkUnavailable })),
);

/**
 * A transparent embed (the server's answer for this load): this page, like the viewer inside it, paints
 * no background, so the customer's page shows around the model. Undone when the page goes.
 */
function useTransparentDocument(on: boolean): void {
  useEffect(() => {
    if (!on) return;
    const targets = [document.documentElement, document.body];
    const before = targets.map((el) => el.style.background);
    for (const el of targets) el.style.background = 'transparent';
    return () => targets.forEach((el, i) => (el.style.background = before[i] ?? ''));
  }, [on]);
}

/**
 * /embed/:token, inside a customer's site: the viewer fills the whole window. Failures are only logged
 * (POST /api/logs); the visitor sees the neutral unavailable page and nothing else.
 */
export function EmbedPage() {
  const { token } = useParams();
  const state = useEmbedDetail(token, 'embed');
  const transparent = state.status === 'ready' && state.detail.transparentBackground;
  useTransparentDocument(transparent);

  if (state.status === 'unavailable') {
    return (
      <Suspense fallback={null}>
        <LinkUnavailable hint={false} />
      </Suspense>
    );
  }
  if (state.status === 'loading') {
    return <PublicLoading className="embed-page" />;
  }
  const name = state.detail.modelName || '3D model';
  return (
    <div className="embed-page" data-transparent={transparent ? 'true' : undefined}>
      <PageTitle title={name} />
      <ModelFrame name={name} src={state.frameUrl} />
    </div>
  );
}
