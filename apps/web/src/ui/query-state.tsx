import { Alert, Button, Empty, Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { MSG } from '@helix/shared';

/**
 * The loading, failed and empty states of every server read (its TanStack query: src/api/query-client.ts),
 * drawn in one place: a list's table (tableStateText), a page's detail or a section (QueryState).
 */

/** Where a read stands. */
export type ListStatus = 'loading' | 'ready' | 'failed';

/** A read in progress: a skeleton of `rows` lines (settle() in the browser tests waits for it to go). */
export function QueryLoading({ label = MSG.loading, rows = 4 }: { label?: string; rows?: number }) {
  return (
    <div role="status" aria-label={label} data-testid="list-skeleton">
      <Skeleton active title={false} paragraph={{ rows }} />
    </div>
  );
}

/** A failed read: the catalogue's message and, when it can be asked again, Try again. */
export function QueryFailed({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      data-testid="query-failed"
      title={message}
      action={
        onRetry && (
          <Button size="small" onClick={onRetry}>
            {MSG.loadAgain}
          </Button>
        )
      }
    />
  );
}

/** A read with nothing to show: its message and an optional action (Add…, Register…). */
export function QueryEmpty({ message, action }: { message: ReactNode; action?: ReactNode }) {
  return (
    <Empty description={message} data-testid="query-empty">
      {action}
    </Empty>
  );
}

/** The parts of a TanStack query result QueryState reads. */
export interface QueryLike<T> {
  data: T | undefined;
  isError: boolean;
  refetch(): unknown;
}

/**
 * What a query shows: its data (`children`, also while it is read again or after a later failure),
 * else the skeleton while it loads, or its failure with Try again; `isEmpty` data shows `empty`.
 * Without `children` it draws only those states (the page draws the data itself).
 */
export function QueryState<T>({
  query,
  failed,
  loading,
  rows,
  isEmpty,
  empty,
  children,
}: {
  query: QueryLike<T>;
  /** The catalogue's message for a failed read. */
  failed: string;
  /** The skeleton's name for screen readers (default: Loading). */
  loading?: string;
  rows?: number;
  isEmpty?(data: T): boolean;
  empty?: { message: ReactNode; action?: ReactNode };
  children?(data: T): ReactNode;
}) {
  if (query.data !== undefined) {
    if (empty && isEmpty?.(query.data)) return <QueryEmpty message={empty.message} action={empty.action} />;
    return <>{children?.(query.data)}</>;
  }
  if (query.isError) return <QueryFailed message={failed} onRetry={() => void query.refetch()} />;
  return <QueryLoading label={loading} rows={rows} />;
}

/**
 * What a table shows with no rows: the skeleton while the list loads (never its empty text, which
 * would say "nothing here" before anything was asked), the failure (with Try again when `onRetry` is
 * given) if it failed, else its empty state.
 */
export function tableStateText(
  status: ListStatus,
  texts: { failed: string; empty: ReactNode; onRetry?: () => void },
): ReactNode {
  if (status === 'loading') return <QueryLoading />;
  if (status === 'failed') return <QueryFailed message={texts.failed} onRetry={texts.onRetry} />;
  return <QueryEmpty message={texts.empty} />;
}
