import { describe, expect, it } from 'vitest';
import { fillDays, todayUtc, topTenantRows, totalViews } from './stats-series';

describe('fillDays', () => {
  it('gives 30 consecutive days ending today, zero where the API listed none', () => {
    const series = fillDays(
      [
        { day: '2025-03-10', views: 4 },
        { day: '2025-02-20', views: 1 },
      ],
      '2025-03-12',
    );
    expect(series).toHaveLength(30);
    expect(series[0]).toEqual({ day: '2025-02-11', views: 0 });
    expect(series.at(-1)).toEqual({ day: '2025-03-12', views: 0 });
    expect(series.find((p) => p.day === '2025-03-10')?.views).toBe(4);
    expect(totalViews(series)).toBe(5);
  });

  it('ends on the newest data day when the server is a day ahead, and skips bad points', () => {
    const series = fillDays(
      [
        { day: '2025-03-13', views: 2 },
        { day: 'yesterday', views: 9 },
        { day: '2025-03-12', views: -3 },
      ],
      '2025-03-12',
      7,
    );
    expect(series.map((p) => p.day)).toEqual([
      '2025-03-07',
      '2025-03-08',
      '2025-03-09',
      '2025-03-10',
      '2025-03-11',
      '2025-03-12',
      '2025-03-13',
    ]);
    expect(totalViews(series)).toBe(2);
  });

  it('handles no data', () => {
    expect(totalViews(fillDays(undefined, '2025-01-01'))).toBe(0);
    expect(todayUtc(Date.UTC(2025, 0, 2, 23, 59))).toBe('2025-01-02');
  });
});

describe('topTenantRows', () => {
  it('uses the tenant name, or the tenants list, or the id', () => {
    const rows = topTenantRows(
      {
        topTenants: [
          { tenant_id: 1, tenant_name: 'Acme', tenant_views: 10 },
          { tenant_id: 2, tenant_name: '', tenant_views: 5 },
          { tenant_id: 3, tenant_name: '', tenant_views: 1 },
        ],
      },
      [{ id: 2, name: 'Beta School', domainPrefix: 'beta' }],
    );
    expect(rows).toEqual([
      { id: 1, name: 'Acme', views: 10 },
      { id: 2, name: 'Beta School', views: 5 },
      { id: 3, name: 'Tenant 3', views: 1 },
    ]);
  });
});
