import { lazy, Suspense } from 'react';
import { useParams } from 'react-router-dom';
import type { EmbedDetail } from '../../models/models.api';
import { safeFrameUrl } from '../../models/share-links';
import { useEmbedDetail } from '../../models/use-embed-detail';
import { PageTitle } from '../../ui/page-title';
import { ModelFrame, PublicLoading } from './model-frame';
import './share.css';

// The unavailable page is built with antd (with its theme): downloaded only when a link fails.
const LinkUnavailable = lazy(() =>
  import('./link-unavailable').then((m) => ({ default: m.LinkUnavailable })),
);

function ShareHeader({ detail, name }: { detail: EmbedDetail; name: string }) {
  // The school's name (its brand name is the slug of its white-label addresses, not a title).
  const brandName = detail.branding.name || 'Helix';
  const logo = safeFrameUrl(detail.branding.brandLogo, window.location.origin);
  const sharedBy = detail.user.name;
  // The school's colour on its name and under the header, as on its white-label login.
  const colour = detail.branding.primaryColor;
  return (
    <header className="share-header" style={{ borderBottomColor: colour }}>
      <span className="share-brand" style={{ color: colour }} data-testid="share-brand">
        <img src={logo ?? '/favicon.svg'} alt="" />
        <span>{brandName}</span>
      </span>
      <h1 className="share-title">{name}</h1>
      {sharedBy && <span className="share-by">Shared by {sharedBy}</span>}
    </header>
  );
}

/** /share/:token: a simple public page with the brand and name on top and the viewer below. */
export function SharePage() {
  const { token } = useParams();
  const state = useEmbedDetail(token, 'share');

  if (state.status === 'unavailable') {
    return (
      <Suspense fallback={null}>
        <LinkUnavailable />
      </Suspense>
    );
  }
  if (state.status === 'loading') {
    return <PublicLoading />;
  }
  const name = state.detail.modelName || 'Shared model';
  return (
    <div className="share-page">
      <PageTitle title={name} />
      <ShareHeader detail={state.detail} name={name} />
      <main className="share-main">
        <ModelFrame name={name} src={state.frameUrl} />
      </main>
    </div>
  );
}
