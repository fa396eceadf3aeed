import { Input } from 'antd';
import './admin-table.css';

/**
 * The search box of a server-paged list (use-server-list): the list searches as the user types
 * (debounced), from page 1.
 */
export function ListSearch({
  list,
  label = 'Search name or e-mail',
  testId = 'list-search',
}: {
  list: { searchText: string; setSearchText(text: string): void };
  label?: string;
  testId?: string;
}) {
  return (
    <Input.Search
      className="list-search"
      allowClear
      placeholder={label}
      aria-label={label}
      data-testid={testId}
      value={list.searchText}
      onChange={(e) => list.setSearchText(e.target.value)}
    />
  );
}
