import type { TablePaginationConfig, TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useDebounce } from 'use-debounce';
import type { ListQueryParams } from '@helix/shared/schemas/list-query';
import { offlineCopy, offlineSavedAt } from '../offline/query-persister';
import { tableStateText, type ListStatus } from './query-state';

/** The answer shape of every paged list (the shared `pageOf`); an answer may carry more fields. */
export interface ListPageAnswer<Row> {
  rows: Row[];
  total: number;
  page: number;
  pageSize: number;
}

/** One page's query, as the shared `listQuery` schema's input: every field filled in by the hook. */
type ServerListQuery<S extends string> = Required<Omit<ListQueryParams<S>, 'search'>> & {
  search?: string;
};

export interface ServerListOptions<Row, S extends string, A extends ListPageAnswer<Row>> {
  /** Asks the server for one page (may be an inline function: the latest one is used). */
  fetchPage(query: ServerListQuery<S>, signal: AbortSignal): Promise<A>;
  /** The list's sort allow-list (the shared `*_SORTS`); a column key outside it is not sent. */
  sorts: readonly S[];
  /** The order shown first and when a column's sort is cleared. */
  sort: S;
  order: 'asc' | 'desc';
  /** Rows per page (default 20, at most LIST_PAGE_SIZE_MAX). */
  pageSize?: number;
  /** The search box's debounce (default 300 ms). */
  debounceMs?: number;
  /** More inputs of the query (filters): a change reloads from page 1. Compared by JSON. */
  deps?: readonly unknown[];
  /**
   * Keeps each answer as an offline copy (offline/query-persister.ts): without the server, a page and
   * search asked before is shown from it (with `savedAt`), others fail.
   */
  snapshot?: string;
  /** The table's texts with no rows: loading shows the list skeleton, never these. */
  texts?: { failed: string; empty: ReactNode; noMatch?: ReactNode };
  /** Called when a load fails (not when it is aborted), e.g. to toast. */
  onError?(error: unknown): void;
  /**
   * The list's name in the query cache (default: `snapshot`): a server render that seeds a list's
   * first page seeds it under serverListKey(name, query).
   */
  key?: string;
}

export interface ServerList<Row, S extends string, A extends ListPageAnswer<Row>> {
  /** The query of the page shown (or being loaded). */
  query: ServerListQuery<S>;
  /** The last answer; kept while the next page loads. null until the first answer. */
  data: A | null;
  rows: Row[];
  total: number;
  status: ListStatus;
  /** When the offline snapshot shown was saved, or null for a server answer. */
  savedAt: number | null;
  /** The search box's text (`search` in `query` is its debounced, trimmed value). */
  searchText: string;
  setSearchText(text: string): void;
  setPage(page: number): void;
  setSort(sort: S, order: 'asc' | 'desc'): void;
  /** Loads the current page again (after an edit). */
  reload(): void;
  /** A column's antd `sortOrder` for the current sort. */
  sortOrder(key: S): 'ascend' | 'descend' | null;
  /** Spread on an antd `<Table>`: rows, loading, pagination, sorting and the empty text. */
  tableProps: Pick<TableProps<Row>, 'dataSource' | 'loading' | 'pagination' | 'onChange' | 'locale'>;
}

/** `?page=…&pageSize=…` for a list query: empty and undefined values are left out. */
export function listQueryString(query: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  return params.toString();
}

/**
 * A server-paged list's key in the query cache: `name` alone stands for every page of the list (to
 * refetch them after an edit); with `query` (and the list's filters, `deps`) for one page.
 */
export function serverListKey(name: string, query?: object, deps?: readonly unknown[]): unknown[] {
  return query === undefined ? ['server-list', name] : ['server-list', name, query, deps ?? []];
}

/** `path?query` (just `path` when the query is empty). */
export function withListQuery(path: string, query: object): string {
  const text = listQueryString(query);
  return text ? `${path}?${text}` : path;
}

/**
 * A server-paged antd table (docs/lists-at-scale.md): page, page size, sort and order, a debounced
 * search, the list skeleton until the first answer, its failure with Try again (ui/query-state.tsx), the previous rows (with the table's spinner)
 * while the next page loads, and a stale answer never overwriting a newer one.
 */
export function useServerList<Row, S extends string, A extends ListPageAnswer<Row> = ListPageAnswer<Row>>(
  options: ServerListOptions<Row, S, A>,
): ServerList<Row, S, A> {
  const pageSize = options.pageSize ?? 20;
  const latest = useRef(options);
  latest.current = options;

  const [searchText, setSearchTextState] = useState('');
  const [search] = useDebounce(searchText.trim(), options.debounceMs ?? 300);
  const [sort, setSortState] = useState<{ sort: S; order: 'asc' | 'desc' }>({
    sort: options.sort,
    order: options.order,
  });
  const depsKey = JSON.stringify(options.deps ?? []);
  // The page belongs to one search, sort and filter: any change of those shows page 1.
  const filterKey = JSON.stringify([search, sort, depsKey]);
  const [pageState, setPageState] = useState({ page: 1, key: filterKey });
  const page = pageState.key === filterKey ? pageState.page : 1;
  const query: ServerListQuery<S> = {
    page,
    pageSize,
    sort: sort.sort,
    order: sort.order,
    ...(search ? { search } : {}),
  };
  const fallbackName = useId();
  const name = options.key ?? options.snapshot ?? fallbackName;
  const queryClient = useQueryClient();
  // The previous rows stay (placeholder) while the next page loads; a stale answer never replaces a
  // newer one (each page and search is its own query).
  // `savedAt` in the answer is always null: a saved page's time is its query's (offlineSavedAt).
  type Answer = { data: A; savedAt: null };
  const result = useQuery<Answer, Error, Answer, unknown[]>({
    queryKey: serverListKey(name, query, options.deps),
    queryFn: ({ signal }): Promise<Answer> =>
      latest.current.fetchPage(query, signal).then((answer) => ({ data: answer, savedAt: null })),
    placeholderData: keepPreviousData,
    // Pages seen online are kept for offline (offline/query-persister.ts).
    ...(options.snapshot ? offlineCopy : {}),
  });
  const data = result.data?.data ?? null;
  const savedAt = offlineSavedAt(result);
  // A saved page shown without the server is not a failure (the notice says when it was saved).
  const failed = result.isError && savedAt === null;
  const status: ListStatus = failed ? 'failed' : result.isFetching || result.isPending ? 'loading' : 'ready';

  useEffect(() => {
    if (failed) latest.current.onError?.(result.error);
  }, [failed, result.errorUpdatedAt, result.error]);

  const setSearchText = useCallback((text: string) => setSearchTextState(text), []);
  const setPage = useCallback((next: number) => setPageState({ page: next, key: filterKey }), [filterKey]);
  const setSort = useCallback((next: S, order: 'asc' | 'desc') => setSortState({ sort: next, order }), []);
  // An edit: every page of this list is asked again (the one shown at once, the others when shown).
  const reload = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: serverListKey(name) }),
    [queryClient, name],
  );
  const sortOrder = (key: S) => (sort.sort === key ? (sort.order === 'asc' ? 'ascend' : 'descend') : null);

  const onChange: TableProps<Row>['onChange'] = (pagination: TablePaginationConfig, _filters, sorter) => {
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row> | undefined;
    const key = s?.columnKey as S | undefined;
    const next =
      s?.order && key !== undefined && options.sorts.includes(key)
        ? { sort: key, order: s.order === 'ascend' ? ('asc' as const) : ('desc' as const) }
        : { sort: options.sort, order: options.order };
    if (next.sort !== sort.sort || next.order !== sort.order) setSortState(next);
    else setPage(pagination.current ?? 1);
  };

  const texts = options.texts;
  const shownStatus: ListStatus = data === null ? status : status === 'failed' ? 'failed' : 'ready';
  return {
    query,
    data,
    rows: data?.rows ?? [],
    total: data?.total ?? 0,
    status,
    savedAt,
    searchText,
    setSearchText,
    setPage,
    setSort,
    reload,
    sortOrder,
    tableProps: {
      dataSource: data?.rows ?? [],
      // The previous rows stay, under the table's spinner, while the next page loads.
      loading: status === 'loading' && data !== null,
      pagination: {
        current: page,
        pageSize,
        total: data?.total ?? 0,
        showSizeChanger: false,
        hideOnSinglePage: true,
      },
      onChange,
      locale: texts
        ? {
            emptyText: tableStateText(shownStatus, {
              failed: texts.failed,
              empty: search && texts.noMatch !== undefined ? texts.noMatch : texts.empty,
              onRetry: reload,
            }),
          }
        : undefined,
    },
  };
}
