import { useId, useRef, type KeyboardEvent, type MouseEvent, type ReactNode, type ToggleEvent } from 'react';

export interface PopoverMenuItem {
  key: string;
  label: ReactNode;
  icon?: ReactNode;
  danger?: boolean;
  disabled?: boolean;
  /** A link's address: the item is a real link (opens in a new tab too); a tap still calls onSelect. */
  href?: string;
}

/** What the trigger (a button) must carry to open the menu. */
interface PopoverMenuTriggerProps {
  popoverTarget: string;
  'aria-haspopup': 'menu';
  style: { anchorName: string };
}

interface PopoverMenuProps {
  /** The menu's accessible name. */
  label: string;
  items: readonly PopoverMenuItem[];
  onSelect(key: string): void;
  /** The button that opens it, given the props that tie it to the menu. */
  trigger(props: PopoverMenuTriggerProps): ReactNode;
  /** The menu's edge lined up with the trigger's: its start (left) or end (right). */
  align?: 'start' | 'end';
}

/**
 * A menu button on the browser's own popover: a tap on the trigger opens it with no script (before
 * the app has loaded too), Escape or a tap outside closes it and gives the focus back, the arrow keys,
 * Home and End move between the items (WAI-ARIA menu button). CSS anchor positioning puts it under
 * the trigger (`.popover-menu`, global.css). antd's Dropdown rendered its menu's code and inserted its
 * styles on the tap that opened it (a first tap's 200-300 ms on a tablet), and its styles on every
 * page that showed one closed.
 */
export function PopoverMenu({ label, items, onSelect, trigger, align = 'end' }: PopoverMenuProps) {
  const id = `menu${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const list = useRef<HTMLDivElement>(null);
  const enabled = () => [
    ...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])') ?? []),
  ];

  /** Opened from the keyboard or by a tap, the first item takes the focus. */
  const onToggle = (event: ToggleEvent<HTMLDivElement>) => {
    if (event.newState === 'open') enabled()[0]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = enabled();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const next = {
      ArrowDown: (at + 1) % all.length,
      ArrowUp: (at - 1 + all.length) % all.length,
      Home: 0,
      End: all.length - 1,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    all[next]?.focus();
  };

  const choose = (item: PopoverMenuItem) => (event: MouseEvent) => {
    event.preventDefault();
    if (item.disabled) return;
    list.current?.hidePopover();
    onSelect(item.key);
  };

  return (
    <>
      {trigger({ popoverTarget: id, 'aria-haspopup': 'menu', style: { anchorName: `--${id}` } })}
      <div
        id={id}
        ref={list}
        className={align === 'end' ? 'popover-menu align-end' : 'popover-menu'}
        style={{ positionAnchor: `--${id}` }}
        popover="auto"
        role="menu"
        aria-label={label}
        onToggle={onToggle}
        onKeyDown={onKeyDown}
      >
        {items.map((item) => {
          const className = item.danger
            ? 'text-button popover-menu-item is-danger'
            : 'text-button popover-menu-item';
          const content = (
            <>
              {item.icon && <span aria-hidden>{item.icon}</span>}
              {item.label}
            </>
          );
          return item.href && !item.disabled ? (
            <a key={item.key} href={item.href} role="menuitem" className={className} onClick={choose(item)}>
              {content}
            </a>
          ) : (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              className={className}
              aria-disabled={item.disabled || undefined}
              onClick={choose(item)}
            >
              {content}
            </button>
          );
        })}
      </div>
    </>
  );
}
