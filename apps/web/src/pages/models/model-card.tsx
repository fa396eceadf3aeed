import {
  CodeOutlined,
  DeleteOutlined,
  EditOutlined,
  ExperimentOutlined,
  ShareAltOutlined,
} from '@ant-design/icons';
import { MSG } from '@helix/shared';
import type { ModelAbilities } from '@helix/shared/schemas/abilities';
import type { ModelPageAbilities } from '../../models/model-permissions';
import type { Model } from '../../models/models.api';
import { PendingTag } from '../../offline/pending-tag';
import { usePendingTargets } from '../../offline/use-outbox';
import { CardActionButton } from './card-action-button';
import { PinButton } from './pin-button';
import { formatCount } from '../../ui/count-format';
import './model-card.css';

export type CardAction = 'open' | 'edit' | 'delete' | 'share' | 'embed';

interface ModelCardProps {
  model: Model;
  /** The page's (views counters); the card's own actions come with the model. */
  abilities: ModelPageAbilities;
  onAction(action: CardAction, model: Model): void;
  /** Kept on this device for offline use. */
  pinned?: boolean;
  /**
   * How the thumbnail loads: the first row at once ('high' for the very first, the page's largest
   * paint), the cards below the fold lazily. The frame keeps a 4:3 box, so nothing shifts.
   */
  priority?: 'high' | 'eager' | 'lazy';
}

const ACTIONS = [
  { action: 'edit', label: 'Edit', icon: <EditOutlined />, allowed: (a: ModelAbilities) => a.edit },
  { action: 'delete', label: 'Delete', icon: <DeleteOutlined />, allowed: (a: ModelAbilities) => a.delete },
  { action: 'share', label: 'Share', icon: <ShareAltOutlined />, allowed: (a: ModelAbilities) => a.embed },
  { action: 'embed', label: 'Embed', icon: <CodeOutlined />, allowed: (a: ModelAbilities) => a.embed },
] as const;

/**
 * One model: thumbnail, name, views (non-admins) and the actions the user holds. The whole card is one
 * button ("Open <name>") for the viewer; the action buttons sit above it. A pinned model shows "Kept
 * offline".
 */
export function ModelCard({ model, abilities, onAction, pinned = false, priority = 'lazy' }: ModelCardProps) {
  const pending = usePendingTargets().has(`model:${model.id}`);
  const actions = ACTIONS.filter((a) => a.allowed(model.abilities)).map(({ action, label, icon }) => (
    <CardActionButton
      key={action}
      label={label}
      name={model.name}
      icon={icon}
      danger={action === 'delete'}
      onClick={() => onAction(action, model)}
    />
  ));
  // Whoever may open the viewer may keep the model for offline viewing.
  if (model.abilities.view) actions.push(<PinButton key="pin" model={model} pinned={pinned} />);

  // Plain markup drawn as antd's Card (model-card.css): a grid of cards hydrates on a tablet's first
  // screen, and antd's Card, Button and Tag cost it their components and 20 kB of styles.
  return (
    <article className={model.abilities.view ? 'model-card is-openable' : 'model-card'}>
      <div className="model-card-thumb">
        {model.thumbnail ? (
          <img
            src={model.thumbnail}
            alt=""
            width={400}
            height={300}
            loading={priority === 'lazy' ? 'lazy' : 'eager'}
            fetchPriority={priority === 'high' ? 'high' : 'auto'}
          />
        ) : (
          <ExperimentOutlined aria-hidden />
        )}
      </div>
      <div className="model-card-body">
        {model.abilities.view && (
          <button
            type="button"
            className="model-card-open"
            aria-label={`Open ${model.name}`}
            onClick={() => onAction('open', model)}
          />
        )}
        <h2 className="model-card-name" title={model.name}>
          {model.name}
          <PendingTag pending={pending} />
        </h2>
        {pinned && (
          <span className="model-card-pinned" data-testid="kept-offline">
            {MSG.keptOffline}
          </span>
        )}
        {abilities.seeViews && <p className="model-card-views">Views: {formatCount(model.viewCount)}</p>}
      </div>
      {actions.length > 0 && (
        <ul className="model-card-actions">
          {actions.map((item) => (
            <li key={item.key}>{item}</li>
          ))}
        </ul>
      )}
    </article>
  );
}
