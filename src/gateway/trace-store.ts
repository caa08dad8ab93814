/**
 * TraceStore: the gateway's traces by session, at most `maxInMemory` of them held in memory (the oldest are evicted
 * first). With a trace file, every trace is appended to it as one JSON line before the client gets its reply, so the
 * file survives a crash and evicted traces are read back from it.
 */
import { closeSync, mkdirSync, openSync, readSync, statSync, writeSync } from "node:fs";
import path from "node:path";
import { describeIssues } from "../core/errors/input-error.js";
import { TraceRecordSchema, type TraceRecord } from "./trace-record.js";

/** Default cap on traces in memory: ~10k calls of a few kB each. */
export const DEFAULT_MAX_TRACES_IN_MEMORY = 10_000;

/** Options of a TraceStore. */
export interface TraceStoreOptions {
  maxInMemory?: number;
  /** Append-only JSONL file of every trace (created with its folder); none keeps traces in memory only. */
  file?: string;
}

interface SessionTraces {
  id: string;
  /** The session's newest traces, oldest first. */
  inMemory: TraceRecord[];
  /** How many of its oldest traces were evicted (they are on disk when there is a file). */
  evicted: number;
  /** The trace file's size when the session was opened: its traces lie after this byte. */
  fileOffset: number;
}

/** Traces by session: a capped in-memory window over an optional append-only trace file. */
export class TraceStore {
  readonly maxInMemory: number;
  private readonly sessions = new Map<string, SessionTraces>();
  // One entry per trace in memory, oldest first: whose trace to evict next.
  private evictionOrder: SessionTraces[] = [];
  private evictionStart = 0;
  private inMemoryCount = 0;
  private readonly file?: { path: string; descriptor: number; bytes: number };

  constructor(options: TraceStoreOptions = {}) {
    this.maxInMemory = options.maxInMemory ?? DEFAULT_MAX_TRACES_IN_MEMORY;
    if (!Number.isInteger(this.maxInMemory) || this.maxInMemory < 1) throw new RangeError(`maxInMemory must be a positive integer, got ${this.maxInMemory}`);
    if (options.file) {
      mkdirSync(path.dirname(options.file), { recursive: true });
      const descriptor = openSync(options.file, "a");
      this.file = { path: options.file, descriptor, bytes: statSync(options.file).size };
      // A crash mid-write leaves a torn last line; end it so the next trace starts a line of its own.
      if (this.file.bytes > 0 && !endsWithNewline(options.file, this.file.bytes)) {
        this.file.bytes += writeSync(descriptor, "\n");
      }
    }
  }

  /** The trace file's path, if traces are persisted. */
  get filePath(): string | undefined {
    return this.file?.path;
  }

  /** Opens a session (a no-op when it exists). */
  open(sessionId: string): void {
    this.session(sessionId);
  }

  /** Appends one trace to the file (synchronously: it is on disk before the reply leaves) and keeps it in memory. */
  add(trace: TraceRecord): void {
    const session = this.session(trace.sessionId);
    if (this.file) {
      const line = Buffer.from(`${JSON.stringify(trace)}\n`);
      writeSync(this.file.descriptor, line);
      this.file.bytes += line.length;
    }
    session.inMemory.push(trace);
    this.evictionOrder.push(session);
    this.inMemoryCount += 1;
    while (this.inMemoryCount > this.maxInMemory) this.evictOldest();
  }

  /** Every trace of the session in call order: evicted ones read back from the file, then those in memory. */
  traces(sessionId: string): TraceRecord[] {
    const session = this.sessions.get(sessionId);
    if (!session) return [];
    if (session.evicted === 0 || !this.file) return [...session.inMemory];
    return [...this.readEvicted(session), ...session.inMemory];
  }

  /** How many of the session's traces were evicted from memory. */
  evictedCount(sessionId: string): number {
    return this.sessions.get(sessionId)?.evicted ?? 0;
  }

  /** Session ids in the order they were opened. */
  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /** Forgets a session in memory; its lines stay in the trace file, which is a log of every call. */
  delete(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.inMemoryCount -= session.inMemory.length;
    session.inMemory = [];
    this.sessions.delete(sessionId);
  }

  /** Closes the trace file. */
  close(): void {
    if (this.file) closeSync(this.file.descriptor);
  }

  private session(sessionId: string): SessionTraces {
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = { id: sessionId, inMemory: [], evicted: 0, fileOffset: this.file?.bytes ?? 0 };
      this.sessions.set(sessionId, session);
    }
    return session;
  }

  private evictOldest(): void {
    while (this.evictionStart < this.evictionOrder.length) {
      const session = this.evictionOrder[this.evictionStart++]!;
      // Entries of deleted sessions are stale; skip them.
      if (this.sessions.get(session.id) !== session || session.inMemory.length === 0) continue;
      session.inMemory.shift();
      session.evicted += 1;
      this.inMemoryCount -= 1;
      break;
    }
    // Drop the consumed head now and then, so the order array does not grow without bound.
    if (this.evictionStart > 4096 && this.evictionStart * 2 > this.evictionOrder.length) {
      this.evictionOrder = this.evictionOrder.slice(this.evictionStart);
      this.evictionStart = 0;
    }
  }

  // The session's first `evicted` traces, scanned from its offset in the file.
  private readEvicted(session: SessionTraces): TraceRecord[] {
    const file = this.file!;
    const buffer = Buffer.alloc(file.bytes - session.fileOffset);
    const reader = openSync(file.path, "r");
    try {
      readSync(reader, buffer, 0, buffer.length, session.fileOffset);
    } finally {
      closeSync(reader);
    }
    const found: TraceRecord[] = [];
    const lines = buffer.toString("utf8").split("\n");
    for (const [index, line] of lines.entries()) {
      if (found.length === session.evicted) break;
      if (line === "" || !line.includes(JSON.stringify(session.id))) continue;
      const json = parseJsonLine(line);
      // Each trace is written as one whole line, so a line that is not JSON is the torn tail of a crashed gateway.
      if (json === undefined) continue;
      const parsed = TraceRecordSchema.safeParse(json);
      if (!parsed.success) throw new Error(`${describeIssues(file.path, undefined, parsed.error)} (line ${index + 1} after byte ${session.fileOffset})`);
      if (parsed.data.sessionId === session.id) found.push(parsed.data);
    }
    return found;
  }
}

function parseJsonLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

function endsWithNewline(file: string, bytes: number): boolean {
  const last = Buffer.alloc(1);
  const reader = openSync(file, "r");
  try {
    readSync(reader, last, 0, 1, bytes - 1);
  } finally {
    closeSync(reader);
  }
  return last[0] === 0x0a;
}
