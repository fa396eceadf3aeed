import { queryOptions } from '@tanstack/react-query';
import { fetchSupportScreenshot } from './support.api';

/** The support requests' query keys and reads, in one place. */
const supportKeys = {
  all: ['support'] as const,
  screenshot: (id: number) => [...supportKeys.all, 'screenshot', id] as const,
};

/**
 * A request's screenshot as an object URL, asked on demand. Not kept once its component is gone: the
 * component revokes the URL then.
 */
export const supportScreenshotQuery = (id: number) =>
  queryOptions({
    queryKey: supportKeys.screenshot(id),
    queryFn: ({ signal }) => fetchSupportScreenshot(id, signal),
    gcTime: 0,
    staleTime: Infinity,
  });
