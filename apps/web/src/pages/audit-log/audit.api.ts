import { AuditPage, type AuditListQuery } from '@helix/shared/schemas/audit';
import { ApiError } from '../../api/api-error';
import { tenantApi } from '../../api/client';
import { readApiToken, readTenant } from '../../session/cookies';

const searchOf = (query: AuditListQuery) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.size ? `?${params.toString()}` : '';
};

/** GET /audit: one page of the events the caller may see (the answer parsed with the shared schema). */
export async function fetchAuditPage(query: AuditListQuery, signal?: AbortSignal): Promise<AuditPage> {
  return AuditPage.parse(await tenantApi.get(`/audit${searchOf(query)}`, { signal, toast: false }));
}

/**
 * GET /audit/export: the filtered events as the server wrote the CSV (the JSON client reads JSON only,
 * so this call reads the file itself), with its file name.
 */
export async function fetchAuditExport(query: AuditListQuery): Promise<{ blob: Blob; fileName: string }> {
  const { page: _page, pageSize: _pageSize, ...filters } = query;
  const res = await fetch(`/api/t/${encodeURIComponent(readTenant())}/audit/export${searchOf(filters)}`, {
    headers: { Authorization: `Bearer ${readApiToken() ?? ''}`, Accept: 'text/csv' },
    credentials: 'same-origin',
  });
  if (!res.ok) throw ApiError.fromResponse(res.status, res.statusText, await res.json().catch(() => null));
  const name =
    /filename="?([^";]+)"?/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'audit-log.csv';
  return { blob: await res.blob(), fileName: name };
}
