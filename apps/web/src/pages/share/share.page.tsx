import { useParams } from 'react-router-dom';
import type { EmbedDetail } from '../../models/models.api';
import { safeFrameUrl } from '../../models/share-links';
import { useEmbedDetail } from '../../models/use-embed-detail';
import { PageTitle } from '../../ui/page-title';
import { LinkUnavailable } from './link-unavailable';
import { ModelFrame, PublicLoading } from './model-frame';
import './share.css';

function ShareHeader({ detail, name }: { detail: EmbedDetail; name: string }) {
  const brandName = detail.branding.customBrandName || detail.branding.name || 'Helix';
  const logo = safeFrameUrl(detail.branding.brandLogo, window.location.origin);
  const sharedBy = detail.user.name;
  return (
    <header className="share-header">
      <span className="share-brand">
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

  if (state.status === 'unavailable') return <LinkUnavailable />;
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
