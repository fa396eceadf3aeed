import { queryOptions } from '@tanstack/react-query';
import { MSG } from '@helix/shared';
import { ApiError } from '../../api/api-error';
import { logError } from '../../logging/error-logger';
import { toastError } from '../../ui/notify';
import { fetchLtiSettings } from './lti.api';

/** The LMS (LTI) page's query keys and reads, in one place. */
export const ltiKeys = {
  all: ['lti'] as const,
  settings: () => [...ltiKeys.all, 'settings'] as const,
};

/** The tool's URLs and keys and the registered learning platforms (GET /lti). */
export const ltiSettingsQuery = () =>
  queryOptions({
    queryKey: ltiKeys.settings(),
    queryFn: ({ signal }) =>
      fetchLtiSettings(signal).catch((error: unknown) => {
        if (!signal.aborted && !(error instanceof ApiError && error.statusCode === 401)) {
          logError('LTI settings: /lti failed', error);
          toastError(MSG.failedLoadLti);
        }
        throw error;
      }),
  });
