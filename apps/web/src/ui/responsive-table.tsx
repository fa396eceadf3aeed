import { DownOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Table, type TableColumnType, type TableProps } from 'antd';
import { useState, type Key, type ReactNode } from 'react';
import { MSG } from '@helix/shared';
import './responsive-table.css';

/** A column of a ResponsiveTable: an antd column and how it behaves on a narrow screen. */
export type ResponsiveColumn<T> = Omit<TableColumnType<T>, 'fixed' | 'responsive'> & {
  /**
   * 1 (the default): always a column. 2: folded into the row's details (its expandable row) when the
   * table has less than 800 px (a tablet held upright beside its menu). 3: folded below 1,200 px (a
   * laptop too). On a phone's card every column is shown, whatever its priority.
   */
  priority?: 1 | 2 | 3;
  /** 'title': the card's heading on a phone (no label); 'actions': the card's buttons (no label). */
  role?: 'title' | 'actions';
  /** The label on a phone's card and in the row's details; the title when it is text. */
  label?: string;
  /** On a phone's card, the label above the value (a wide value: an address to copy, a long text). */
  stack?: boolean;
};

export type ResponsiveTableProps<T> = Omit<TableProps<T>, 'columns' | 'scroll'> & {
  columns: ResponsiveColumn<T>[];
};

const labelOf = <T,>(column: ResponsiveColumn<T>): string =>
  column.label ?? (typeof column.title === 'string' ? column.title : '');

/** What a column's cell shows for a record: its render, else the value at its dataIndex. */
function cellOf<T>(column: ResponsiveColumn<T>, record: T, index: number): ReactNode {
  const path =
    column.dataIndex === undefined ? [] : ([] as (string | number)[]).concat(column.dataIndex as never);
  const value = path.reduce<unknown>((at, part) => (at as Record<string | number, unknown>)?.[part], record);
  if (column.render) return column.render(value, record, index) as ReactNode;
  return value as ReactNode;
}

function keyOf<T>(rowKey: TableProps<T>['rowKey'], record: T, index: number): Key {
  if (typeof rowKey === 'function') return rowKey(record, index);
  return (record as Record<string, Key>)[(rowKey as string | undefined) ?? 'key'] ?? index;
}

/**
 * Every list table of the web app (apps/web/README.md, "Tables on phones and tablets"): an antd Table whose layout follows the
 * width it is given, by CSS container queries alone (the server, which draws the first screen, cannot
 * know the width; nothing changes when the app starts):
 * - 500 px and more: a table; columns of priority 2 and 3 fold into the row's details (a button at the
 *   row's end opens them) below 800 and 1,200 px, so the table is never wider than its place;
 * - below 500 px (a phone): each row is a card, its cells one under the other with their column's
 *   label, the title first and the actions last and full width, nothing to scroll sideways.
 * A page's own expandable row (expandedRowRender) is kept, with the folded columns after it.
 */
export function ResponsiveTable<T extends object>({
  columns,
  expandable,
  className,
  rowKey,
  ...props
}: ResponsiveTableProps<T>) {
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  const folded = columns.filter((c) => (c.priority ?? 1) > 1);
  const deepest = Math.max(1, ...columns.map((c) => c.priority ?? 1));
  const own = expandable?.expandedRowRender;
  const canExpand = (record: T) => (own ? (expandable?.rowExpandable?.(record) ?? true) : false);

  const toggle = (key: Key) =>
    setExpanded((keys) => (keys.includes(key) ? keys.filter((k) => k !== key) : [...keys, key]));

  const shaped: TableColumnType<T>[] = columns.map(
    ({ priority = 1, role, label: _label, stack, width, ...column }) => {
      const label = labelOf({ ...column, label: _label });
      const classes = [column.className, `rt-p${priority}`, role && `rt-${role}`, stack && 'rt-stack']
        .filter(Boolean)
        .join(' ');
      return {
        ...column,
        className: classes,
        // Widths on the header cell, not in a <colgroup>: a folded column's cells are hidden, its <col> would stay.
        onHeaderCell: (col) => {
          const own = column.onHeaderCell?.(col);
          return { ...own, style: width ? { ...own?.style, width } : own?.style };
        },
        onCell: (record, index) => ({ ...column.onCell?.(record, index), 'data-label': label }) as never,
      };
    },
  );

  const toggleColumn: TableColumnType<T> | null =
    own || folded.length > 0
      ? {
          key: 'rt-toggle',
          title: <span className="rt-hidden-label">{MSG.rowDetails}</span>,
          className: own ? 'rt-toggle rt-toggle-own' : `rt-toggle rt-toggle-p${deepest}`,
          render: (_, record, index) => {
            const key = keyOf(rowKey, record, index);
            const open = expanded.includes(key);
            if (own && !canExpand(record) && folded.length === 0) return null;
            return (
              <Button
                type="text"
                icon={open ? <DownOutlined /> : <RightOutlined />}
                aria-expanded={open}
                aria-label={open ? MSG.hideRowDetails : MSG.showRowDetails}
                data-touch-label={MSG.rowDetails}
                onClick={() => toggle(key)}
              />
            );
          },
        }
      : null;

  const details = (record: T, index: number, indent: number, open: boolean) => (
    <>
      {own && canExpand(record) && <div className="rt-own-details">{own(record, index, indent, open)}</div>}
      {folded.length > 0 && (
        <dl className="rt-details">
          {folded.map((column, at) => (
            <div key={String(column.key ?? at)} className={`rt-detail rt-fold-p${column.priority}`}>
              <dt>{labelOf(column)}</dt>
              <dd>{cellOf(column, record, index)}</dd>
            </div>
          ))}
        </dl>
      )}
    </>
  );

  return (
    <div className={['rt', own ? 'rt-has-own' : '', className].filter(Boolean).join(' ')}>
      <Table<T>
        {...props}
        rowKey={rowKey}
        columns={toggleColumn ? [...shaped, toggleColumn] : shaped}
        expandable={
          toggleColumn
            ? {
                ...expandable,
                expandedRowRender: details,
                expandedRowKeys: expanded,
                showExpandColumn: false,
                expandedRowClassName: () =>
                  own ? 'rt-expanded rt-expanded-own' : `rt-expanded rt-expanded-p${deepest}`,
              }
            : expandable
        }
      />
    </div>
  );
}
