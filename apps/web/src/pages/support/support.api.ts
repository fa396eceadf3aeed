import type { ListQueryParams } from '@helix/shared/schemas/list-query';
import {
  SupportRequestCreated,
  SupportRequestPage,
  SupportRequestView,
  type SUPPORT_SORTS,
  type SupportStatusUpdate,
} from '@helix/shared/schemas/support';
import { tenantApi } from '../../api/client';
import { listQueryString } from '../../ui/use-server-list';
import { readApiToken, readTenant } from '../../session/cookies';

export type SupportRequest = SupportRequestView;

export interface SupportRequestDraft {
  subject: string;
  message: string;
  screenshot?: File;
}

/** The multipart body of POST /support (the screenshot as a file part). */
function toSupportFormData(draft: SupportRequestDraft): FormData {
  const form = new FormData();
  form.append('subject', draft.subject);
  form.append('message', draft.message);
  if (draft.screenshot) form.append('screenshot', draft.screenshot, draft.screenshot.name);
  return form;
}

/** POST /support: the answer's message states the response target. */
export const sendSupportRequest = async (draft: SupportRequestDraft): Promise<SupportRequestCreated> =>
  SupportRequestCreated.parse(await tenantApi.postForm<unknown>('/support', toSupportFormData(draft)));

/** GET /support?page=… (platform admins): one page, priority first, then the order asked. */
export const fetchSupportPage = async (
  query: ListQueryParams<(typeof SUPPORT_SORTS)[number]> & { status?: string; priority?: string },
  signal?: AbortSignal,
): Promise<SupportRequestPage> =>
  SupportRequestPage.parse(
    await tenantApi.get<unknown>(`/support?${listQueryString(query)}`, { signal, toast: false }),
  );

export const updateSupportStatus = async (
  id: number,
  status: SupportStatusUpdate['status'],
): Promise<SupportRequest> =>
  SupportRequestView.parse(await tenantApi.post<unknown>(`/support/${id}/status`, { status }));

/**
 * GET /support/:id/screenshot as an object URL (the caller revokes it). Screenshots are not on the
 * public image path, so an <img> cannot load them by URL: they are fetched with the session's token.
 */
export async function fetchSupportScreenshot(id: number, signal?: AbortSignal): Promise<string> {
  const token = readApiToken();
  const response = await fetch(`/api/t/${encodeURIComponent(readTenant())}/support/${id}/screenshot`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    signal,
  });
  if (!response.ok) throw new Error(`screenshot ${id}: ${response.status}`);
  return URL.createObjectURL(await response.blob());
}
