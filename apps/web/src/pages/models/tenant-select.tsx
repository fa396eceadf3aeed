import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { fetchTenants, type Tenant } from '../../models/models.api';

interface TenantSelectProps {
  id?: string;
  value?: number[];
  onChange?(value: number[]): void;
}

/** The tenants a non-public model is shown to (GET /tenant/getAllTenants, platform admins). */
export function TenantSelect({ id, value, onChange }: TenantSelectProps) {
  const [tenants, setTenants] = useState<Tenant[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    fetchTenants({ signal: controller.signal })
      .then(setTenants)
      .catch(() => {
        if (!controller.signal.aborted) setFailed(true);
      });
    return () => controller.abort();
  }, []);

  return (
    <Select<number[]>
      id={id}
      mode="multiple"
      allowClear
      value={value ?? []}
      onChange={(next) => onChange?.(next)}
      loading={tenants === null && !failed}
      status={failed ? 'error' : undefined}
      placeholder="Choose the tenants that may see this model"
      optionFilterProp="label"
      options={(tenants ?? []).map((t) => ({ value: t.id, label: `${t.name} (${t.domainPrefix})` }))}
    />
  );
}
