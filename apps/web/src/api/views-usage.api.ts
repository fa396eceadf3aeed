import type { ViewsSummary } from '@helix/shared/schemas/model';
import { readApiToken, readTenant } from '../session/cookies';
import { ApiError } from './api-error';
import { tenantApi } from './client';

/** GET /views/summary: the period's usage (used / allowance / grace, period end). */
export const fetchViewsSummary = (signal?: AbortSignal) =>
  tenantApi.get<ViewsSummary>('/views/summary', { signal, toast: false });

/**
 * GET /views/export: the period's views per model and per link as the server wrote the CSV (the JSON
 * client reads JSON only, so this one call reads the file itself), with its file name.
 */
export async function fetchViewsExport(): Promise<{ blob: Blob; fileName: string }> {
  const res = await fetch(`/api/t/${encodeURIComponent(readTenant())}/views/export`, {
    headers: { Authorization: `Bearer ${readApiToken() ?? ''}`, Accept: 'text/csv' },
    credentials: 'same-origin',
  });
  if (!res.ok) throw ApiError.fromResponse(res.status, res.statusText, await res.json().catch(() => null));
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'views.csv';
  return { blob: await res.blob(), fileName: name };
}
