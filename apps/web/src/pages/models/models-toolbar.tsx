import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Input, Typography } from 'antd';
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
      <Typography.Title level={1} className="page-title">
        Models
      </Typography.Title>
      {abilities.add && (
        <Button type="primary" icon={<PlusOutlined />} onClick={props.onAdd}>
          Add Model
        </Button>
      )}
      <Input
        className="models-search"
        type="search"
        allowClear
        aria-label="Search models"
        placeholder="Search models"
        prefix={<SearchOutlined aria-hidden />}
        value={search}
        maxLength={100}
        onChange={(e) => props.onSearch(e.target.value)}
      />
      {/* The device's own list (a tablet's picker): antd's Select brought 40 kB of styles and its
          code to the first screen for four choices. */}
      <select
        className="models-sort"
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
