import { Input } from 'antd';
import { handover, type HandoverHook } from '@helix/shared/handover';
import './admin-table.css';

/**
 * The search box of a server-paged list (use-server-list): the list searches as the user types
 * (debounced), from page 1. `hook`: its hand-over hook on a page that may arrive drawn, so what was
 * typed before the app was up carries over (src/prerender/drawn-home.ts).
 */
export function ListSearch({
  list,
  label = 'Search name or e-mail',
  testId = 'list-search',
  hook,
}: {
  list: { searchText: string; setSearchText(text: string): void };
  label?: string;
  testId?: string;
  hook?: HandoverHook;
}) {
  return (
    <Input.Search
      className="list-search"
      allowClear
      placeholder={label}
      aria-label={label}
      data-testid={testId}
      {...(hook ? handover(hook) : {})}
      value={list.searchText}
      onChange={(e) => list.setSearchText(e.target.value)}
    />
  );
}
