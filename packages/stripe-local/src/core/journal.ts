import {
  close,
  closeSync,
  existsSync,
  fdatasync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  write,
  writeSync,
} from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import {
  PERSISTED_TABLES,
  readSnapshot,
  syncDirectory,
  writeSnapshot,
  type PersistedTable,
} from './snapshot.ts';
import type { Store, Table, TableObserver } from './store.ts';

type Row = { id: string; created: number };

const writeAsync = promisify(write) as (fd: number, data: string) => Promise<unknown>;
const fdatasyncAsync = promisify(fdatasync);
const closeAsync = promisify(close);
type Line = { t: PersistedTable; r: Row } | { t: PersistedTable; d: string } | { seq: number };

export interface JournalOptions {
  /** Compact (write a snapshot, start an empty journal) once the journal is this big; default 8 MB. */
  compactBytes?: number;
}

/**
 * Makes the store durable: every change is appended to `<snapshot>.journal` and fsynced before the answer
 * that follows it is sent; at start the snapshot is loaded and the journal replayed; now and then (and at
 * start and stop) both are compacted into a new snapshot.
 *
 * Records are plain objects changed in place across the code base, so the journal does not ask to be
 * told about changes: every record a table hands out is "touched", and at each commit the touched records
 * are serialised and compared with what was last written; only the ones that differ are appended (the
 * whole record: replay is last-writer-wins and needs no order between tables).
 *
 * Group commit: changes captured while a write+fsync is running go out together in the next one, so
 * concurrent requests share an fsync. A response waits for every change captured before it (also other
 * requests' changes it may have read), so nothing it shows can be lost.
 *
 * Generations: the snapshot and the journal's header line carry the same number; a journal from an older
 * generation (a crash between writing a snapshot and starting the new journal) is already contained in
 * the snapshot and is skipped.
 */
export class Journal implements TableObserver {
  private readonly journalFile: string;
  private readonly compactBytes: number;
  private readonly written = new Map<string, string>();
  private touched = new Map<string, { table: PersistedTable; row: Row }>();
  private removed: { table: PersistedTable; id: string }[] = [];
  private sequenceWritten = 0;
  private pending: string[] = [];
  private capturedSeq = 0;
  private durableSeq = 0;
  private waiters: { seq: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  private fd: number | undefined;
  private bytes = 0;
  private generation = 0;
  private flushing = false;
  private captureScheduled = false;
  private failure: Error | undefined;
  private closed = false;
  /** Figures for tests and logs. */
  readonly stats = { commits: 0, fsyncs: 0, lines: 0, compactions: 0, replayedLines: 0, loadMs: 0 };

  private store!: Store;

  constructor(
    private readonly snapshotFile: string,
    options: JournalOptions = {},
  ) {
    this.journalFile = `${snapshotFile}.journal`;
    this.compactBytes = options.compactBytes ?? 8 * 1024 * 1024;
  }

  /** The store to keep (it must be empty). */
  attach(store: Store): void {
    this.store = store;
  }

  /** Loads the snapshot, replays the journal, compacts both, then starts watching the tables. */
  async open(): Promise<void> {
    const started = performance.now();
    mkdirSync(path.dirname(this.snapshotFile), { recursive: true });
    this.generation = readSnapshot(this.store, this.snapshotFile)?.generation ?? 0;
    this.replay();
    for (const name of PERSISTED_TABLES) this.table(name).observe(name, this);
    this.compactNow();
    this.stats.loadMs = Math.round(performance.now() - started);
  }

  private table(name: PersistedTable): Table<Row> {
    return this.store[name] as unknown as Table<Row>;
  }

  private replay(): void {
    if (!existsSync(this.journalFile)) return;
    const text = readFileSync(this.journalFile, 'utf8');
    const lines = text.split('\n');
    let header: { generation?: number } | undefined;
    try {
      header = JSON.parse(lines[0] ?? '') as { generation?: number };
    } catch {
      header = undefined;
    }
    if (header?.generation !== this.generation) return;
    for (let i = 1; i < lines.length; i++) {
      const text = lines[i]!;
      if (!text) continue;
      let line: Line;
      try {
        line = JSON.parse(text) as Line;
      } catch (error) {
        // A torn last line is a write that never finished its fsync, so nothing answered depends on it.
        if (lines.slice(i + 1).every((l) => !l)) break;
        throw new Error(
          `stripe-local: ${this.journalFile} line ${i + 1} is corrupt: ${(error as Error).message}`,
        );
      }
      this.apply(line);
      this.stats.replayedLines++;
    }
  }

  private apply(line: Line): void {
    if ('seq' in line) this.store.invoiceSequence = Math.max(this.store.invoiceSequence, line.seq);
    else if ('d' in line) this.table(line.t).delete(line.d);
    else this.table(line.t).add(line.r);
  }

  touch(table: string, row: { id: string }): void {
    if (this.closed || (row as { fromStart?: boolean }).fromStart) return;
    this.touched.set(`${table}\0${row.id}`, { table: table as PersistedTable, row: row as Row });
    this.scheduleCapture();
  }

  remove(table: string, id: string): void {
    if (this.closed) return;
    this.touched.delete(`${table}\0${id}`);
    this.removed.push({ table: table as PersistedTable, id });
    this.scheduleCapture();
  }

  /** Changes made outside a request (scheduler, test clocks, webhook results) are written soon after. */
  private scheduleCapture(): void {
    if (this.captureScheduled) return;
    this.captureScheduled = true;
    setImmediate(() => {
      this.captureScheduled = false;
      if (!this.closed) void this.commit().catch(() => undefined);
    });
  }

  /** Turns the touched records that changed into journal lines. */
  private capture(): void {
    const lines: string[] = [];
    for (const { table, id } of this.removed) {
      const key = `${table}\0${id}`;
      if (!this.written.has(key)) continue;
      this.written.delete(key);
      lines.push(JSON.stringify({ t: table, d: id }));
    }
    this.removed = [];
    const touched = this.touched;
    this.touched = new Map();
    for (const [key, { table, row }] of touched) {
      if ((row as { fromStart?: boolean }).fromStart) continue;
      const json = JSON.stringify(row);
      if (this.written.get(key) === json) continue;
      this.written.set(key, json);
      lines.push(`{"t":${JSON.stringify(table)},"r":${json}}`);
    }
    if (this.store.invoiceSequence !== this.sequenceWritten) {
      this.sequenceWritten = this.store.invoiceSequence;
      lines.push(JSON.stringify({ seq: this.sequenceWritten }));
    }
    if (!lines.length) return;
    this.pending.push(`${lines.join('\n')}\n`);
    this.stats.lines += lines.length;
    this.capturedSeq++;
  }

  /** Resolves once every change made so far is on disk (rejects if the disk refused it). */
  commit(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    this.capture();
    this.stats.commits++;
    if (this.durableSeq >= this.capturedSeq) return Promise.resolve();
    const seq = this.capturedSeq;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
    void this.flush();
    return done;
  }

  /** True when an answer sent now shows nothing that is not on disk yet (no await needed). */
  isClean(): boolean {
    this.capture();
    return !this.failure && this.durableSeq >= this.capturedSeq;
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      while (this.pending.length && !this.failure) {
        const batch = this.pending.join('');
        const upTo = this.capturedSeq;
        this.pending = [];
        try {
          await writeAsync(this.fd!, batch);
          await fdatasyncAsync(this.fd!);
        } catch (error) {
          this.fail(error as Error);
          break;
        }
        this.stats.fsyncs++;
        this.bytes += Buffer.byteLength(batch);
        this.durableSeq = Math.max(this.durableSeq, upTo);
        if (this.bytes > this.compactBytes) this.compactNow();
        this.settle();
      }
    } finally {
      this.flushing = false;
    }
  }

  private settle(): void {
    const ready = this.waiters.filter((w) => w.seq <= this.durableSeq);
    this.waiters = this.waiters.filter((w) => w.seq > this.durableSeq);
    for (const w of ready) w.resolve();
  }

  private fail(error: Error): void {
    console.error(`[stripe-local] cannot write ${this.journalFile}; answering 500 from now on:`, error);
    this.failure = new Error(`stripe-local could not write its state: ${error.message}`);
    for (const w of this.waiters) w.reject(this.failure);
    this.waiters = [];
  }

  /**
   * Writes the whole state as a new snapshot generation and starts an empty journal for it. Synchronous,
   * so no request runs in between; everything captured so far is durable afterwards.
   */
  private compactNow(): void {
    this.capture();
    const generation = this.generation + 1;
    writeSnapshot(this.store, this.snapshotFile, generation);
    const temp = `${this.journalFile}.tmp`;
    const header = `${JSON.stringify({ journal: 1, generation })}\n`;
    const fd = openSync(temp, 'w');
    writeSync(fd, header);
    fsyncSync(fd);
    closeSync(fd);
    // No write is in flight here (compaction runs inside the flush loop, at start or at stop).
    if (this.fd !== undefined) closeSync(this.fd);
    renameSync(temp, this.journalFile);
    syncDirectory(this.journalFile);
    this.generation = generation;
    this.bytes = Buffer.byteLength(header);
    this.pending = [];
    this.durableSeq = this.capturedSeq;
    this.stats.compactions++;
    this.rememberWritten();
    this.fd = openSync(this.journalFile, 'a');
    this.settle();
  }

  /** After a snapshot, what is on disk is exactly the store: remember it so unchanged rows are skipped. */
  private rememberWritten(): void {
    this.written.clear();
    this.touched.clear();
    this.removed = [];
    for (const name of PERSISTED_TABLES)
      for (const row of this.table(name).rawValues())
        if (!(row as { fromStart?: boolean }).fromStart)
          this.written.set(`${name}\0${row.id}`, JSON.stringify(row));
    this.sequenceWritten = this.store.invoiceSequence;
  }

  /** Writes what is pending, compacts, and stops watching (the server is stopping). */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.commit().catch(() => undefined);
    while (this.flushing) await new Promise((r) => setTimeout(r, 5));
    if (!this.failure) this.compactNow();
    this.closed = true;
    for (const name of PERSISTED_TABLES) this.table(name).observe(name, undefined);
    if (this.fd !== undefined) await closeAsync(this.fd).catch(() => undefined);
    this.fd = undefined;
  }

  journalBytes(): number {
    return existsSync(this.journalFile) ? statSync(this.journalFile).size : 0;
  }
}
