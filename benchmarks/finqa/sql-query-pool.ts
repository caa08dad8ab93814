/**
 * Runs FinQA SQL queries in separate processes, one query per process at a time, with a time limit
 * and a memory cap. better-sqlite3 12 offers no interrupt, progress handler or sqlite3_limit, and a
 * worker thread stuck inside sqlite3_step can be neither terminated nor left behind at exit, so a
 * process that can be killed is the only stop that always works.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Socket } from "node:net";
import type { ResultLimits, SqlOutcome, SqlReply, SqlRequest } from "./sql-query-messages.js";

/** What one query may spend and return. */
export interface QueryLimits extends ResultLimits {
  timeoutMs: number;
}

export interface SqlQueryPoolOptions {
  /** Query processes at most (default: up to 4, one per core). */
  size?: number;
  /**
   * Cap on each query process's data memory (RLIMIT_DATA through util-linux `prlimit`, on Linux
   * when it is installed; elsewhere only the time limit and V8's heap cap apply).
   */
  dataLimitBytes?: number;
}

// 256 MiB: a company's tables take a few MB; a query that builds a value this large is runaway.
const defaultDataLimitBytes = 256 * 1024 * 1024;
// Databases one process keeps open; the least recently used is closed beyond this.
const maxOpenDatabases = 32;
// V8's heap in the query process, in MB: rows are at most a few kilobytes, so a huge value dies here.
const heapLimitMegabytes = 128;

const processModule = fileURLToPath(new URL("./sql-query-process.mjs", import.meta.url));

interface PendingQuery {
  requestId: number;
  databaseId: number;
  sql: string;
  limits: QueryLimits;
  resolve: (outcome: SqlOutcome) => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  child: ChildProcess;
  isReady: boolean;
  current?: PendingQuery;
  timer?: NodeJS.Timeout;
  /** Databases open in this process, least recently used first. */
  openDatabases: number[];
  stderrTail: string;
}

/** A pool of query processes; databases are registered once and sent to each process that needs them. */
export class SqlQueryPool {
  private readonly slots: Slot[] = [];
  private readonly queue: PendingQuery[] = [];
  private readonly databases = new Map<number, Uint8Array>();
  private nextDatabaseId = 0;
  private nextRequestId = 0;
  private isExitHookInstalled = false;
  /** Query processes at most. */
  readonly size: number;
  private readonly launch: { command: string; args: string[] };
  private readonly killAll = () => {
    for (const slot of this.slots) slot.child.kill("SIGKILL");
  };
  private killCount = 0;

  constructor(options: SqlQueryPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(4, availableParallelism()));
    this.launch = launchCommand(options.dataLimitBytes ?? defaultDataLimitBytes);
  }

  /** Query processes killed so far at a time limit or an abort. */
  get killed(): number {
    return this.killCount;
  }

  /** Queries running now (sent to a process, not yet answered). */
  get running(): number {
    return this.slots.filter((slot) => slot.current !== undefined).length;
  }

  /** Makes `bytes` (a serialized SQLite database) queryable; returns its id. */
  register(bytes: Uint8Array): number {
    const databaseId = this.nextDatabaseId++;
    this.databases.set(databaseId, bytes);
    return databaseId;
  }

  /** Forgets a database and closes it in every process that has it open. */
  unregister(databaseId: number): void {
    this.databases.delete(databaseId);
    for (const slot of this.slots) {
      const index = slot.openDatabases.indexOf(databaseId);
      if (index === -1) continue;
      slot.openDatabases.splice(index, 1);
      this.send(slot, { type: "close", databaseId });
    }
  }

  /** Runs `sql` on a registered database; a time limit or a crash is an outcome, an abort rejects with the signal's reason. */
  run(databaseId: number, sql: string, limits: QueryLimits, signal?: AbortSignal): Promise<SqlOutcome> {
    if (!this.databases.has(databaseId)) throw new Error(`SqlQueryPool: database ${databaseId} is not registered`);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const pending: PendingQuery = { requestId: this.nextRequestId++, databaseId, sql, limits, resolve, reject, signal };
      if (signal) {
        pending.onAbort = () => this.abort(pending);
        signal.addEventListener("abort", pending.onAbort, { once: true });
      }
      this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Kills every query process; queued and running queries end as crashed. */
  close(): void {
    for (const pending of this.queue.splice(0)) this.settle(pending, { kind: "crashed", message: "the query pool was closed" });
    for (const slot of [...this.slots]) this.retire(slot, { kind: "crashed", message: "the query pool was closed" });
    process.removeListener("exit", this.killAll);
    this.isExitHookInstalled = false;
  }

  private spawn(): void {
    const child = spawn(this.launch.command, this.launch.args, {
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "advanced",
    });
    const slot: Slot = { child, isReady: false, openDatabases: [], stderrTail: "" };
    this.slots.push(slot);
    if (!this.isExitHookInstalled) process.on("exit", this.killAll);
    this.isExitHookInstalled = true;
    child.stderr?.on("data", (chunk: Buffer) => {
      slot.stderrTail = (slot.stderrTail + chunk.toString()).slice(-2000);
    });
    child.on("message", (message: SqlReply) => {
      if (message.type === "ready") {
        slot.isReady = true;
        this.dispatch();
        return;
      }
      const pending = slot.current;
      if (pending?.requestId !== message.requestId) return;
      clearTimeout(slot.timer);
      slot.current = undefined;
      this.settle(pending, message.outcome);
      this.dispatch();
    });
    child.on("error", (error) => this.onDeath(slot, error.message));
    child.on("exit", (code, signal) => this.onDeath(slot, signal ?? `exit code ${code}`));
  }

  /** A process ended that nobody killed: its query crashed; if it never started, so would every queued one. */
  private onDeath(slot: Slot, how: string): void {
    if (!this.slots.includes(slot)) return;
    const message = slot.isReady
      ? `the query process died (${how}), most likely out of memory; build smaller values`
      : `the query process could not start (${how}): ${slot.stderrTail.trim().split("\n").at(-1) ?? ""}`;
    this.retire(slot, { kind: "crashed", message });
    if (!slot.isReady) for (const pending of this.queue.splice(0)) this.settle(pending, { kind: "crashed", message });
    this.dispatch();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.isReady || slot.current !== undefined) continue;
      const pending = this.queue.shift();
      if (pending === undefined) break;
      this.start(slot, pending);
    }
    // Processes still starting will take queued queries; start more only for the rest.
    const free = this.slots.filter((slot) => slot.current === undefined).length;
    for (let extra = this.queue.length - free; extra > 0 && this.slots.length < this.size; extra--) this.spawn();
    this.updateReferences();
  }

  private start(slot: Slot, pending: PendingQuery): void {
    const bytes = this.databases.get(pending.databaseId);
    if (bytes === undefined) {
      this.settle(pending, { kind: "crashed", message: "the table store was closed" });
      return;
    }
    const index = slot.openDatabases.indexOf(pending.databaseId);
    if (index === -1) {
      if (slot.openDatabases.length === maxOpenDatabases) this.send(slot, { type: "close", databaseId: slot.openDatabases.shift()! });
      this.send(slot, { type: "open", databaseId: pending.databaseId, bytes });
    } else {
      slot.openDatabases.splice(index, 1);
    }
    slot.openDatabases.push(pending.databaseId);
    slot.current = pending;
    const { maxRows, maxCharacters, timeoutMs } = pending.limits;
    this.send(slot, { type: "query", requestId: pending.requestId, databaseId: pending.databaseId, sql: pending.sql, limits: { maxRows, maxCharacters } });
    slot.timer = setTimeout(() => {
      this.killCount++;
      this.retire(slot, { kind: "timeout", timeoutMs });
      this.dispatch();
    }, timeoutMs);
  }

  private abort(pending: PendingQuery): void {
    const queued = this.queue.indexOf(pending);
    if (queued !== -1) this.queue.splice(queued, 1);
    const slot = this.slots.find((candidate) => candidate.current === pending);
    if (slot) {
      this.killCount++;
      slot.current = undefined;
      this.retire(slot, { kind: "crashed", message: "aborted" });
      this.dispatch();
    }
    pending.reject(pending.signal?.reason);
  }

  /** Kills a slot's process and settles its running query with `outcome`. */
  private retire(slot: Slot, outcome: SqlOutcome): void {
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
    clearTimeout(slot.timer);
    slot.child.kill("SIGKILL");
    if (slot.current) this.settle(slot.current, outcome);
    slot.current = undefined;
  }

  private settle(pending: PendingQuery, outcome: SqlOutcome): void {
    if (pending.onAbort) pending.signal?.removeEventListener("abort", pending.onAbort);
    pending.resolve(outcome);
  }

  private send(slot: Slot, request: SqlRequest): void {
    slot.child.send(request);
  }

  /** Busy processes keep the parent alive; idle ones must not (a run's pool waits for its next episode's query). */
  private updateReferences(): void {
    for (const slot of this.slots) {
      const isBusy = slot.current !== undefined || this.queue.length > 0;
      const handles = [slot.child, slot.child.channel, slot.child.stderr as Socket | null];
      for (const handle of handles) {
        if (isBusy) handle?.ref?.();
        else handle?.unref?.();
      }
    }
  }
}

/** node on the bootstrap, under `prlimit --data` where that exists. */
function launchCommand(dataLimitBytes: number): { command: string; args: string[] } {
  const nodeArgs = [`--max-old-space-size=${heapLimitMegabytes}`, processModule];
  const prlimit = process.platform === "linux" ? findOnPath("prlimit") : undefined;
  if (prlimit === undefined) return { command: process.execPath, args: nodeArgs };
  return { command: prlimit, args: [`--data=${dataLimitBytes}`, "--", process.execPath, ...nodeArgs] };
}

function findOnPath(name: string): string | undefined {
  for (const folder of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(folder, name);
    if (folder !== "" && existsSync(candidate)) return candidate;
  }
  return undefined;
}
