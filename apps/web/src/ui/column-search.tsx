import { SearchOutlined } from '@ant-design/icons';
import { Button, Input, Space, type TableColumnType } from 'antd';
import { HighlightText } from './highlight-text';
import './admin-table.css';

/** Case-insensitive substring match, as the tables' column searches do. */
export const includesText = (value: string | null | undefined, search: string): boolean =>
  (value ?? '').toLowerCase().includes(search.trim().toLowerCase());

/**
 * antd's column search recipe: a filter dropdown with a search box, rows filtered by substring, and
 * the matches highlighted in the cells. `searches` holds the current text per column (controlled by the
 * page so highlighting follows the filter).
 */
export function columnSearch<T>(opts: {
  key: string;
  label: string;
  value: (row: T) => string | null | undefined;
  search: string;
  onSearch: (text: string) => void;
}): Pick<TableColumnType<T>, 'filterDropdown' | 'filterIcon' | 'onFilter' | 'render' | 'filteredValue'> {
  const { key, label, value, search, onSearch } = opts;
  return {
    filteredValue: search ? [search] : null,
    filterDropdown: ({ selectedKeys, setSelectedKeys, confirm, clearFilters }) => (
      <div className="column-search" onKeyDown={(e) => e.stopPropagation()}>
        <Input
          placeholder={`Search ${label}`}
          aria-label={`Search ${label}`}
          data-testid={`search-${key}`}
          value={String(selectedKeys[0] ?? '')}
          onChange={(e) => setSelectedKeys(e.target.value ? [e.target.value] : [])}
          onPressEnter={() => {
            confirm();
            onSearch(String(selectedKeys[0] ?? ''));
          }}
          style={{ marginBottom: 8, display: 'block' }}
        />
        <Space>
          <Button
            type="primary"
            size="small"
            icon={<SearchOutlined />}
            onClick={() => {
              confirm();
              onSearch(String(selectedKeys[0] ?? ''));
            }}
          >
            Search
          </Button>
          <Button
            size="small"
            onClick={() => {
              clearFilters?.();
              setSelectedKeys([]);
              confirm();
              onSearch('');
            }}
          >
            Reset
          </Button>
        </Space>
      </div>
    ),
    filterIcon: (filtered: boolean) => (
      <SearchOutlined aria-label={`Search ${label}`} style={{ color: filtered ? '#5f51fb' : undefined }} />
    ),
    onFilter: (filter, row) => includesText(value(row), String(filter)),
    render: (_: unknown, row: T) => <HighlightText text={value(row) ?? ''} search={search} />,
  };
}
