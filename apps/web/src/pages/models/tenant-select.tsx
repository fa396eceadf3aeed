import { Select, Spin } from 'antd';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useDebounce } from 'use-debounce';
import { MSG } from '@helix/shared';
import type { TenantOptionView } from '@helix/shared/schemas/tenant-option';
import { tenantsByIdsQuery, tenantSearchQuery } from './tenant-options.queries';

interface TenantSelectProps {
  id?: string;
  value?: number[];
  onChange?(value: number[]): void;
}

const labelOf = (t: TenantOptionView) => `${t.name} (${t.domainPrefix})`;

/**
 * The tenants a non-public model is shown to (platform admins): a search-as-you-type select that asks
 * the server for tenants by name, 20 at a time, the next 20 when the list is scrolled to its end
 * (docs/lists-at-scale.md), so 10,000 tenants are never loaded at once. The tenants already chosen are
 * asked for by id, for their names.
 */
export function TenantSelect({ id, value, onChange }: TenantSelectProps) {
  const [text, setText] = useState('');
  const [search] = useDebounce(text.trim(), 300);
  const [chosen, setChosen] = useState<Map<number, TenantOptionView>>(new Map());

  // The names of the tenants already chosen (an edited model's).
  const selected = value ?? [];
  const unknownKey = selected.filter((v) => !chosen.has(v)).join(',');
  const names = useQuery({ ...tenantsByIdsQuery(unknownKey), enabled: !!unknownKey });
  useEffect(() => {
    if (names.data) setChosen((m) => new Map([...m, ...names.data.map((t) => [t.id, t] as const)]));
  }, [names.data]);

  const found = useInfiniteQuery(tenantSearchQuery(search));
  const rows = found.data?.pages.flatMap((p) => p.rows) ?? [];
  const more = found.hasNextPage;
  const loading = found.isFetching;
  const failed = found.isError;
  const known = new Map([...chosen, ...rows.map((t) => [t.id, t] as const)]);
  const options = [
    ...rows.map((t) => ({ value: t.id, label: labelOf(t) })),
    // The chosen tenants outside this search still show as tags (never a bare id once named).
    ...selected
      .filter((v) => !rows.some((t) => t.id === v))
      .map((v) => ({ value: v, label: known.get(v) ? labelOf(known.get(v)!) : `#${v}` })),
  ];

  return (
    <Select<number[]>
      id={id}
      mode="multiple"
      allowClear
      showSearch
      filterOption={false}
      searchValue={text}
      onSearch={(next) => {
        setText(next);
      }}
      value={selected}
      onChange={(next) => {
        // Remember the names of what was picked, for when the search moves on.
        setChosen(
          (m) => new Map([...m, ...rows.filter((t) => next.includes(t.id)).map((t) => [t.id, t] as const)]),
        );
        onChange?.(next);
      }}
      onPopupScroll={(e) => {
        const el = e.currentTarget;
        if (more && !loading && el.scrollTop + el.clientHeight >= el.scrollHeight - 24)
          void found.fetchNextPage();
      }}
      loading={loading}
      status={failed ? 'error' : undefined}
      placeholder="Search and choose the tenants that may see this model"
      notFoundContent={loading ? <Spin size="small" /> : failed ? MSG.failedGetTenants : MSG.tenantsNoMatch}
      options={options}
      data-testid="tenant-select"
    />
  );
}
