import {
  LtiClassStats,
  LtiPlatformView,
  LtiSettings,
  LtiToolView,
  type LtiPlatformSave,
} from '@helix/shared/schemas/lti';
import { tenantApi } from '../../api/client';

/** GET /lti: the tool's addresses and keys, and the school's platforms (parsed with the shared schema). */
export async function fetchLtiSettings(signal?: AbortSignal): Promise<LtiSettings> {
  return LtiSettings.parse(await tenantApi.get('/lti', { signal, toast: false }));
}

/** POST /lti/platform/save: register (no id) or change a platform. */
export async function saveLtiPlatform(input: LtiPlatformSave): Promise<LtiPlatformView> {
  return LtiPlatformView.parse(await tenantApi.post('/lti/platform/save', input));
}

export async function deleteLtiPlatform(id: number): Promise<void> {
  await tenantApi.post('/lti/platform/delete', { id });
}

/** POST /lti/key/rotate: the tool's keys after the rotation. */
export async function rotateLtiKey(): Promise<LtiToolView> {
  return LtiToolView.parse(await tenantApi.post('/lti/key/rotate', {}));
}

/** GET /stats/classes: views per class (LTI course). */
export async function fetchClassStats(signal?: AbortSignal): Promise<LtiClassStats> {
  return LtiClassStats.parse(await tenantApi.get('/stats/classes', { signal, toast: false }));
}
