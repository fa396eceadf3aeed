import { fork } from 'node:child_process';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ResizeOptions, SharpOptions, WebpOptions } from 'sharp';

/** The rasteriser child's niceness (0 normal, 19 lowest). */
export const RASTERISE_NICE = 10;

const CHILD = fileURLToPath(new URL('./rasterise-svg.process.mjs', import.meta.url));

export interface RasterRequest {
  bytes: Buffer;
  input: SharpOptions;
  resize: ResizeOptions;
  webp: WebpOptions;
}

export type RasterResult =
  | { ok: true; bytes: Buffer; width: number; height: number }
  /** `timeout`: killed at the budget; `refused`: sharp refused the image (pixel limit, bad SVG...). */
  | { ok: false; reason: 'timeout' | 'refused'; detail: string };

type ChildAnswer =
  { ok: true; bytes: Uint8Array; width: number; height: number } | { ok: false; error: string };

/**
 * Rasterises with sharp in a child process killed (SIGKILL) after `seconds`: a hard bound even while
 * librsvg is inside one long render call, where sharp's `timeout` is not looked at. The child also
 * gets sharp's `timeout`, so a slow pipeline of many strips stops by itself. Rejects only when the
 * child cannot be started or dies without an answer (the job's retry handles that).
 */
export function rasteriseInChild(request: RasterRequest, seconds: number): Promise<RasterResult> {
  return new Promise((resolve, reject) => {
    // Plain node, not this process's loaders (tsx, vitest): the child is JavaScript.
    const child = fork(CHILD, [], {
      execArgv: [],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    // Below everything else on the machine: an upload's rasterising (hostile or not) never takes CPU
    // from the API's requests or from the bitmaps other schools upload meanwhile.
    if (child.pid !== undefined) {
      try {
        setPriority(child.pid, RASTERISE_NICE);
      } catch {
        // Not permitted here: the time limit still bounds it.
      }
    }
    let stderr = '';
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(() => resolve({ ok: false, reason: 'timeout', detail: `over ${seconds} s` }));
    }, seconds * 1000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString('utf8');
    });
    child.once('message', (message) => {
      const answer = message as ChildAnswer;
      settle(() =>
        resolve(
          answer.ok
            ? { ok: true, bytes: Buffer.from(answer.bytes), width: answer.width, height: answer.height }
            : {
                ok: false,
                // sharp's own timeout fired first (a pipeline of many strips): the same refusal.
                reason: /^timeout:/.test(answer.error) ? 'timeout' : 'refused',
                detail: answer.error,
              },
        ),
      );
    });
    child.once('error', (error) => {
      child.kill('SIGKILL');
      settle(() => reject(error));
    });
    child.once('exit', (code, signal) =>
      settle(() =>
        reject(new Error(`svg rasteriser exited (${signal ?? code}) without an answer: ${stderr}`)),
      ),
    );
    child.send(
      { bytes: request.bytes, input: request.input, resize: request.resize, webp: request.webp, seconds },
      (error) => {
        if (error) {
          child.kill('SIGKILL');
          settle(() => reject(error));
        }
      },
    );
  });
}
