import type { Page } from 'playwright-core';

/** The outbox as the page's IndexedDB holds it, for the outbox browser tests and bench:offline. */

/** Queues `count` more role creations like the first queued one (as the form would, without typing). */
export async function queueMore(page: Page, prefix: string, count: number): Promise<void> {
  await page.evaluate(
    async ({ prefix, count }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('helix');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const all = await new Promise<Record<string, unknown>[]>((resolve) => {
        const req = db.transaction('outbox').objectStore('outbox').getAll();
        req.onsuccess = () => resolve(req.result as Record<string, unknown>[]);
      });
      const model = all[0]!;
      const tx = db.transaction('outbox', 'readwrite');
      for (let i = 1; i <= count; i++) {
        const name = `${prefix}${String(i).padStart(3, '0')}`;
        const { seq: _seq, ...rest } = model;
        tx.objectStore('outbox').add({
          ...rest,
          key: crypto.randomUUID(),
          target: `role:new:${name}`,
          label: `Create role ${name}`,
          body: { id: 0, name, permissions: [] },
          createdAt: Date.now(),
        });
      }
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
    },
    { prefix, count },
  );
}

export const outboxCount = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('helix');
        open.onsuccess = () => {
          const req = open.result.transaction('outbox').objectStore('outbox').count();
          req.onsuccess = () => {
            resolve(req.result);
            open.result.close();
          };
        };
      }),
  );
