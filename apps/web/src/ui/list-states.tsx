import { Skeleton } from 'antd';
import type { ReactNode } from 'react';

/** Where a list's load stands (use-snapshot-load and the pages' own loads share these). */
export type ListStatus = 'loading' | 'ready' | 'failed';

/**
 * What a table shows with no rows: a skeleton while the list loads (never its empty-state text, which
 * would say "nothing here" before anything was asked), the failure message if it failed, else the empty
 * state.
 */
export function listEmptyText(status: ListStatus, failed: ReactNode, empty: ReactNode): ReactNode {
  if (status === 'loading') {
    return (
      <div role="status" aria-label="Loading" data-testid="list-skeleton">
        <Skeleton active title={false} paragraph={{ rows: 4 }} />
      </div>
    );
  }
  return status === 'failed' ? failed : empty;
}
