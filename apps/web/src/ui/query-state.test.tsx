import { isValidElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { MSG } from '@helix/shared';
import { QueryEmpty, QueryFailed, QueryLoading, QueryState, tableStateText } from './query-state';

const query = <T,>(data: T | undefined, isError = false) => ({ data, isError, refetch: vi.fn() });

/** What QueryState draws for a query, as its element (type and props) and as markup. */
function draw<T>(props: Parameters<typeof QueryState<T>>[0]) {
  const element = QueryState(props) as ReactElement<Record<string, unknown>>;
  return { element, html: renderToStaticMarkup(element) };
}

describe('QueryState', () => {
  it('shows the skeleton while the first answer is awaited, never the empty or failed text', () => {
    const { element, html } = draw({
      query: query(undefined),
      failed: MSG.failedLoadUser,
      loading: 'Loading plans',
    });
    expect(element.type).toBe(QueryLoading);
    expect(html).toContain('aria-label="Loading plans"');
    expect(html).toContain('data-testid="list-skeleton"');
    expect(html).not.toContain(MSG.failedLoadUser);
  });

  it('shows the failure with Try again, which asks the server again', () => {
    const failing = query(undefined, true);
    const { element, html } = draw({ query: failing, failed: MSG.failedLoadUser });
    expect(element.type).toBe(QueryFailed);
    expect(html).toContain(MSG.failedLoadUser);
    expect(html).toContain(MSG.loadAgain);
    (element.props.onRetry as () => void)();
    expect(failing.refetch).toHaveBeenCalledOnce();
  });

  it('keeps showing the data after a later failure, and the empty state for empty data', () => {
    const children = (rows: string[]) => (
      <ul>
        {rows.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
    );
    const empty = { message: MSG.noPlans };
    const isEmpty = (rows: string[]) => rows.length === 0;
    expect(draw({ query: query(['Ada'], true), failed: 'x', isEmpty, empty, children }).html).toBe(
      '<ul><li>Ada</li></ul>',
    );
    const none = draw({ query: query<string[]>([]), failed: 'x', isEmpty, empty, children });
    expect(none.element.type).toBe(QueryEmpty);
    expect(none.html).toContain(MSG.noPlans);
    // Without children it draws only the states: nothing once the data is there.
    expect(draw({ query: query(['Ada']), failed: 'x' }).html).toBe('');
  });
});

describe('tableStateText', () => {
  it("is a table's skeleton, failure with Try again, or empty state", () => {
    const onRetry = vi.fn();
    const texts = { failed: MSG.failedLoadRoles, empty: MSG.noRoles, onRetry };
    const loading = tableStateText('loading', texts);
    expect(isValidElement(loading) && loading.type).toBe(QueryLoading);
    const failed = tableStateText('failed', texts) as ReactElement<{ onRetry(): void }>;
    expect(renderToStaticMarkup(failed)).toContain(MSG.failedLoadRoles);
    failed.props.onRetry();
    expect(onRetry).toHaveBeenCalledOnce();
    expect(renderToStaticMarkup(tableStateText('ready', texts))).toContain(MSG.noRoles);
    // No retry offered: no Try again.
    expect(renderToStaticMarkup(tableStateText('failed', { failed: 'Nope', empty: '' }))).not.toContain(
      MSG.loadAgain,
    );
  });
});
