import { Alert, Button, Result } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { OfflineNotice } from '../../offline/offline-notice';
import { DEFAULT_MODEL_SORT, type ModelSort } from '@helix/shared/schemas/model';
import { prefetchFirstListing } from '../../models/listing-prefetch';
import { modelPageAbilities } from '../../models/model-permissions';
import type { Model } from '../../models/models.api';
import { useModelListing } from '../../models/use-model-listing';
import { usePinnedModels } from '../../offline/use-pinned-models';
import { useRefreshPins } from '../../offline/use-refresh-pins';
import { useSessionUser } from '../../session/use-session';
import { PageTitle } from '../../ui/page-title';
import type { CardAction } from './model-card';
import { ModelGrid } from './model-grid';
import { ModelsToolbar } from './models-toolbar';
import { PinnedStorage } from './pinned-storage';
import './models.css';

// The first listing is asked for when this chunk loads, not after the session refresh (see there).
prefetchFirstListing();

// The dialogs (upload form, viewer, share/embed links, ...) are downloaded when first opened, not
// with the grid (src/routing/lazy-page.tsx explains the pattern).
const BuyViewsModal = lazy(() => import('./buy-views.modal').then((m) => ({ default: m.BuyViewsModal })));
const DeleteModelModal = lazy(() =>
  import('./delete-model.modal').then((m) => ({ default: m.DeleteModelModal })),
);
const ModelFormModal = lazy(() => import('./model-form.modal').then((m) => ({ default: m.ModelFormModal })));
const ShareEmbedModal = lazy(() =>
  import('./share-embed.modal').then((m) => ({ default: m.ShareEmbedModal })),
);
const ViewerModal = lazy(() => import('./viewer.modal').then((m) => ({ default: m.ViewerModal })));

type Dialog =
  | { kind: 'add' }
  | { kind: 'buy-views' }
  | { kind: 'open' | 'edit' | 'delete' | 'share' | 'embed'; model: Model }
  | null;

/** /models (platform admin) and /user/home (subscribers' users): the model grid and its dialogs. */
export function ModelsPage() {
  const user = useSessionUser();
  const abilities = modelPageAbilities(user);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<ModelSort>(DEFAULT_MODEL_SORT);
  // The usage e-mail's "Buy views" link (/user/home?buy-views=1) opens the Add Views dialog. Read from
  // the router, not window: the page is also rendered on the server (server-render/render-page.server.tsx).
  const [query] = useSearchParams();
  const [dialog, setDialog] = useState<Dialog>(() => (query.has('buy-views') ? { kind: 'buy-views' } : null));
  const listing = useModelListing(search, sort, abilities.list);
  const pins = usePinnedModels(user?.id ?? null);
  const pinnedIds = new Set(pins.keys());
  const pinnedBytes = [...pins.values()].reduce((sum, pin) => sum + pin.bytes, 0);
  useRefreshPins(user?.id ?? null, listing.models, pins, !listing.fromCache && !listing.loading);
  const close = () => setDialog(null);

  if (!abilities.list) {
    return (
      <section className="page">
        <PageTitle title="Models" />
        <Result
          status="403"
          title={<h1 className="status-title">Models</h1>}
          subTitle={MSG.unauthorizedPage}
        />
      </section>
    );
  }

  const onAction = (action: CardAction, model: Model) => setDialog({ kind: action, model });
  const nothingToShow =
    listing.failed && !listing.loading && listing.models.length === 0 && !listing.fromCache;

  return (
    <section className="page models-page">
      <PageTitle title="Models" />
      <ModelsToolbar
        abilities={abilities}
        search={search}
        sort={sort}
        views={listing.views}
        onSearch={setSearch}
        onSort={setSort}
        onAdd={() => setDialog({ kind: 'add' })}
        onAddViews={() => setDialog({ kind: 'buy-views' })}
      />
      {pins.size > 0 && <PinnedStorage pinnedCount={pins.size} pinnedBytes={pinnedBytes} />}
      {listing.failed && listing.fromCache && <OfflineNotice savedAt={listing.savedAt} />}
      {nothingToShow ? (
        <Alert
          className="models-notice"
          type="error"
          showIcon
          title={MSG.failedLoadModels}
          action={
            <Button size="small" onClick={listing.reload}>
              Retry
            </Button>
          }
        />
      ) : (
        <ModelGrid
          models={listing.models}
          loading={listing.loading}
          refreshing={listing.refreshing}
          searching={search.trim() !== ''}
          abilities={abilities}
          onAction={onAction}
          pinned={pinnedIds}
        />
      )}

      <Suspense fallback={null}>
        {dialog?.kind === 'open' && (
          <ViewerModal model={dialog.model} pinned={pins.has(dialog.model.id)} onClose={close} />
        )}
        {(dialog?.kind === 'add' || dialog?.kind === 'edit') && (
          <ModelFormModal
            model={dialog.kind === 'edit' ? dialog.model : null}
            onClose={close}
            onSaved={(saved) => {
              close();
              listing.saved(saved);
            }}
          />
        )}
        {dialog?.kind === 'delete' && (
          <DeleteModelModal
            model={dialog.model}
            onClose={close}
            onDeleted={(id) => {
              close();
              listing.removed(id);
            }}
          />
        )}
        {(dialog?.kind === 'share' || dialog?.kind === 'embed') && (
          <ShareEmbedModal
            kind={dialog.kind}
            model={dialog.model}
            allowTransparent={abilities.transparentEmbed}
            onClose={close}
          />
        )}
        {dialog?.kind === 'buy-views' && <BuyViewsModal views={listing.views} onClose={close} />}
      </Suspense>
    </section>
  );
}
