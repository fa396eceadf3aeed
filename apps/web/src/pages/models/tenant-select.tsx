import { Select, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useDebounce } from 'use-debounce';
import { MSG } from '@helix/shared';
import type { TenantOptionView } from '@helix/shared/schemas/tenant-option';
import { fetchTenantOptionsPage } from './tenant-options.api';

interface TenantSelectProps {
  id?: string;
  value?: number[];
  onChange?(value: number[]): void;
}

const PAGE_SIZE = 20;
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
  const [page, setPage] = useState(1);
  const [found, setFound] = useState<{ search: string; rows: TenantOptionView[]; total: number } | null>(
    null,
  );
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [chosen, setChosen] = useState<Map<number, TenantOptionView>>(new Map());
  const asked = useRef(new Set<number>());

  // The names of the tenants already chosen (an edited model's), once each.
  const selected = value ?? [];
  const unknown = selected.filter((v) => !chosen.has(v) && !asked.current.has(v));
  const unknownKey = unknown.join(',');
  useEffect(() => {
    if (!unknownKey) return;
    const ids = unknownKey.split(',').map(Number);
    ids.forEach((v) => asked.current.add(v));
    const controller = new AbortController();
    fetchTenantOptionsPage({ ids: unknownKey, pageSize: ids.length }, controller.signal)
      .then((answer) => setChosen((m) => new Map([...m, ...answer.rows.map((t) => [t.id, t] as const)])))
      .catch(() => undefined);
    return () => controller.abort();
  }, [unknownKey]);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setFailed(false);
    fetchTenantOptionsPage({ page, pageSize: PAGE_SIZE, search: search || undefined }, controller.signal)
      .then((answer) => {
        setFound((prev) => ({
          search,
          rows: page > 1 && prev?.search === search ? [...prev.rows, ...answer.rows] : answer.rows,
          total: answer.total,
        }));
        setLoading(false);
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        setFailed(true);
        setLoading(false);
      });
    return () => controller.abort();
  }, [search, page]);

  const rows = found?.search === search ? found.rows : [];
  const more = found !== null && found.search === search && rows.length < found.total;
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
        setPage(1);
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
        if (more && !loading && el.scrollTop + el.clientHeight >= el.scrollHeight - 24) setPage((p) => p + 1);
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
