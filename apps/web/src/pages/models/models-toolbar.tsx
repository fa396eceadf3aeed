import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ModelSort } from '@helix/shared/schemas/model';
import { SORT_OPTIONS } from '../../models/model-listing';
import type { ModelPageAbilities } from '../../models/model-permissions';
import type { ModelViews } from '../../models/models.api';
import { ViewsCounter } from './views-counter';

interface ModelsToolbarProps {
  abilities: ModelPageAbilities;
  search: string;
  sort: ModelSort;
  views: ModelViews | null;
  onSearch(value: string): void;
  onSort(value: ModelSort): void;
  onAdd(): void;
  onAddViews(): void;
}

/** The title bar: Add Model, search, sort, views counter and Add Views (administration-content 2). */
export function ModelsToolbar(props: ModelsToolbarProps) {
  const { abilities, search, sort, views } = props;
  return (
    <div className="models-toolbar">
      <h1 className="page-title models-title">Models</h1>
      {abilities.add && (
        <Button type="primary" icon={<PlusOutlined />} onClick={props.onAdd}>
          Add Model
        </Button>
      )}
      {/* The browser's own search field (its clear button, Escape to clear, a phone's search key):
          antd's Input brought 37 kB of styles to the first screen. */}
      <label className="models-search">
        <SearchOutlined aria-hidden />
        <input
          type="search"
          aria-label="Search models"
          placeholder="Search models"
          value={search}
          maxLength={100}
          onChange={(e) => props.onSearch(e.target.value)}
        />
      </label>
      {/* The device's own list (a tablet's picker): antd's Select brought 40 kB of styles and its
          code to the first screen for four choices. */}
      <select
        className="outlined-control models-sort"
        aria-label="Sort models"
        value={sort}
        onChange={(e) => props.onSort(e.target.value as ModelSort)}
      >
        {SORT_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {abilities.seeViews && <ViewsCounter views={views} showAdditional={abilities.seeAdditionalViews} />}
      {abilities.addViews && <Button onClick={props.onAddViews}>Add Views</Button>}
    </div>
  );
}
