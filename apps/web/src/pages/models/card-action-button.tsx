import { LoadingOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';

interface CardActionButtonProps {
  /** What it does ('Edit'): its tooltip on hover, written beside the icon on touch screens. */
  label: string;
  /** The model's name, for screen readers ('Edit Animal cell'). */
  name: string;
  icon: ReactNode;
  danger?: boolean;
  busy?: boolean;
  pressed?: boolean;
  onClick(): void;
}

/** A model card's icon action, drawn as antd's text button (global.css `.text-button`, model-card.css `.card-action`). */
export function CardActionButton({
  label,
  name,
  icon,
  danger,
  busy,
  pressed,
  onClick,
}: CardActionButtonProps) {
  return (
    <button
      type="button"
      className={danger ? 'text-button card-action is-danger' : 'text-button card-action'}
      aria-label={`${label} ${name}`}
      aria-pressed={pressed}
      aria-busy={busy || undefined}
      disabled={busy}
      data-touch-label={label}
      onClick={onClick}
    >
      {busy ? <LoadingOutlined aria-hidden /> : icon}
    </button>
  );
}
