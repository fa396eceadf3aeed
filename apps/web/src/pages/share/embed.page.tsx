import { useParams } from 'react-router-dom';
import { useEmbedDetail } from '../../models/use-embed-detail';
import { PageTitle } from '../../ui/page-title';
import { LinkUnavailable } from './link-unavailable';
import { ModelFrame, PublicLoading } from './model-frame';
import './share.css';

/**
 * /embed/:token, inside a customer's site: the viewer fills the whole window. Failures are only logged
 * (POST /api/logs); the visitor sees the neutral unavailable page and nothing else.
 */
export function EmbedPage() {
  const { token } = useParams();
  const state = useEmbedDetail(token, 'embed');

  if (state.status === 'unavailable') return <LinkUnavailable hint={false} />;
  if (state.status === 'loading') {
    return <PublicLoading className="embed-page" />;
  }
  const name = state.detail.modelName || '3D model';
  return (
    <div className="embed-page">
      <PageTitle title={name} />
      <ModelFrame name={name} src={state.frameUrl} />
    </div>
  );
}
