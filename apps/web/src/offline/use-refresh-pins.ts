import { useEffect, useRef } from 'react';
import { logError } from '../logging/error-logger';
import type { Model } from '../models/models.api';
import { readTenant } from '../session/cookies';
import { refreshPin, type PinnedModel } from './pinned-models';

/**
 * Keeps pinned copies current: when the grid (a server answer) shows a pinned model at a newer version
 * than the kept copy, the new file is downloaded in the background, once per page visit. A pin kept
 * before the server issued copy ids is renewed the same way, so its offline views count again.
 */
export function useRefreshPins(
  userId: number | null,
  models: Model[],
  pins: Map<number, PinnedModel>,
  fromServer: boolean,
): void {
  const tried = useRef(new Set<string>());
  useEffect(() => {
    if (userId === null || !fromServer || !navigator.onLine) return;
    for (const model of models) {
      const pin = pins.get(model.id);
      // Read as stored: a pin from before copy ids has neither field.
      const issued = Boolean(pin?.model.copy.copyId && pin.model.deviceId);
      if (!pin || (model.version <= pin.model.copy.version && issued)) continue;
      const attempt = `${model.id}:${model.version}`;
      if (tried.current.has(attempt)) continue;
      tried.current.add(attempt);
      refreshPin(userId, readTenant(), model, pin).catch((error: unknown) =>
        logError('Refreshing a pinned model failed', error, 'warn'),
      );
    }
  }, [userId, models, pins, fromServer]);
}
