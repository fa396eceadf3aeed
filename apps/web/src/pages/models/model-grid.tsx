import { Card, Empty, Skeleton } from 'antd';
import { MSG } from '@helix/shared';
import type { ModelPageAbilities } from '../../models/model-permissions';
import type { Model } from '../../models/models.api';
import { EAGER_THUMBNAILS } from '../../models/listing-prefetch';
import { ModelCard, type CardAction } from './model-card';

interface ModelGridProps {
  models: Model[];
  loading: boolean;
  /** A newer answer is on its way (the cards shown may be the cache or an older search). */
  refreshing: boolean;
  searching: boolean;
  abilities: ModelPageAbilities;
  onAction(action: CardAction, model: Model): void;
  /** Ids of the models kept on this device. */
  pinned?: ReadonlySet<number>;
}

const SKELETON_CARDS = 8;

export function ModelGrid({
  models,
  loading,
  refreshing,
  searching,
  abilities,
  onAction,
  pinned,
}: ModelGridProps) {
  if (loading) {
    return (
      <ul className="model-grid" aria-busy="true" aria-label="Loading models">
        {/* Keys apart from model ids: React must not reuse a placeholder's <li> for a card (a layout shift). */}
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          <li key={`placeholder-${i}`}>
            <Card className="model-card-skeleton" cover={<Skeleton.Image active />}>
              <Skeleton active title paragraph={{ rows: 1 }} />
            </Card>
          </li>
        ))}
      </ul>
    );
  }
  if (models.length === 0) {
    return <Empty description={searching ? MSG.noModelsMatch : MSG.noModels} data-testid="models-empty" />;
  }
  return (
    <ul className="model-grid" aria-label="Models" aria-busy={refreshing}>
      {models.map((model, index) => (
        <li key={model.id} aria-label={model.name}>
          <ModelCard
            model={model}
            abilities={abilities}
            onAction={onAction}
            pinned={pinned?.has(model.id)}
            priority={index < EAGER_THUMBNAILS ? (index === 0 ? 'high' : 'eager') : 'lazy'}
          />
        </li>
      ))}
    </ul>
  );
}
