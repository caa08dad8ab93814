/** A pool of worker threads that grade math jobs with a hard per-check time limit (a stuck thread is terminated and replaced). */
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { startTsWorker } from "rllm-ts/core";
import type { MathGroundTruth, MathVerdict } from "./grade-math-under-policy.js";
import { groundTruthLane, MathJobLanes } from "./math-job-lanes.js";
import { defaultMathPolicy, MathPolicySchema, type MathPolicy, type MathPolicyInput } from "./math-policy.js";

/** One grading job. */
export interface MathJob {
  response: string;
  groundTruth: MathGroundTruth;
  /** Geo3K-style choices, so that a letter can match a value. */
  choices?: string[];
  /** Policy flags for this job (default policy when absent). */
  policy?: MathPolicyInput;
}

/** A job as a worker thread gets it: its policy validated here, so that the thread needs no zod. */
export interface ResolvedMathJob extends Omit<MathJob, "policy"> {
  policy: MathPolicy;
}

/** What a worker thread is started with. */
export interface MathWorkerData {
  /** The policy its warm-up checks run under. */
  warmUpPolicy: MathPolicy;
}

/** A verdict from the pool: may also be a timeout or a failure of the pool itself (`infraError`). */
export interface PooledMathVerdict extends MathVerdict {
  timedOut?: boolean;
  infraError?: boolean;
}

/** Message a worker sends back for each job. */
export interface MathJobResult {
  id: number;
  verdict: PooledMathVerdict;
}

export interface MathWorkerPoolOptions {
  /** Worker threads (default: all cores). */
  size?: number;
  /** Hard limit per check in milliseconds, counted from dispatch to a ready worker. */
  timeoutMs: number;
  /** The grading thread's module (default math-worker.js); tests give one that dies on cue. */
  workerModule?: URL;
}

interface PendingJob {
  id: number;
  job: ResolvedMathJob;
  resolve: (verdict: PooledMathVerdict) => void;
  /** The lane it waits in: its ground truth's (math-job-lanes.ts), or for a control check the dead thread's slot. */
  lane: number;
  /** The known-good check run after a thread died, to tell whose fault the death was. */
  isControl?: boolean;
}

interface Slot {
  worker: Worker;
  isReady: boolean;
  /** Jobs sent to this worker, graded in order; the first is the one under the time limit now. */
  inFlight: PendingJob[];
  timer?: NodeJS.Timeout;
}

// Jobs are sent in chunks (one message per chunk, one reply per job) to save messaging overhead on big batches.
const maxChunk = 32;

// ".js" so the build runs math-worker.js; from the sources tsx maps it to math-worker.ts.
const workerModule = new URL("./math-worker.js", import.meta.url);

// A pair every healthy grading thread gets right in microseconds: the control check after a thread died.
const controlJob: ResolvedMathJob = { response: "\\boxed{\\frac{1}{2}}", groundTruth: "0.5", policy: defaultMathPolicy };

/** Grades jobs on `size` worker threads; call `close()` when done. */
export class MathWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: MathJobLanes<PendingJob>;
  // Policies as validated, by the object callers passed (a batch passes one policy object for all its jobs).
  private readonly resolvedPolicies = new WeakMap<object, MathPolicy>();
  private nextId = 0;
  private isClosed = false;
  readonly size: number;
  // Threads this pool may start at most: its size, or fewer for a small batch (capThreads).
  private threadCap: number;

  constructor(private readonly options: MathWorkerPoolOptions) {
    this.size = Math.max(1, options.size ?? availableParallelism());
    this.threadCap = this.size;
    this.queue = new MathJobLanes(this.size);
  }

  /** The hard limit per check, milliseconds. */
  get timeoutMs(): number {
    return this.options.timeoutMs;
  }

  /**
   * Starts one grading thread now, ahead of the first job: its start and mathjs warm-up (about 0.3 s) then overlap
   * whatever the run does before it grades. Like an idle thread, it does not keep the process alive.
   */
  warm(): void {
    if (this.slots.length === 0 && !this.isClosed) {
      this.spawn();
      this.slots[0]!.worker.unref();
    }
  }

  /**
   * Starts no more than `count` threads (at least one) from now on: a thread takes about as long to start as a few
   * hundred checks take, so a small batch is faster on fewer. Threads already started stay.
   */
  capThreads(count: number): void {
    this.threadCap = Math.max(1, Math.min(this.size, count));
  }

  /** Queues one job; resolves with its verdict (a timeout resolves as "not equivalent, timed out"). */
  grade(job: MathJob): Promise<PooledMathVerdict> {
    if (this.isClosed) throw new Error("MathWorkerPool is closed");
    let policy: MathPolicy;
    try {
      policy = this.resolvePolicy(job.policy);
    } catch (error) {
      // An invalid policy is the caller's mistake, not the answer's: an infrastructure error, not a wrong answer.
      return Promise.resolve({ correct: false, reward: 0, reason: `grader error: ${(error as Error).message}`, infraError: true });
    }
    const resolvedJob = { ...job, policy };
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, job: resolvedJob, resolve, lane: groundTruthLane(job.groundTruth, this.size) });
      for (const slot of this.slots) slot.worker.ref();
      if (this.slots.length < this.threadCap && this.slots.length < this.queue.length + this.busyCount()) this.spawn();
      this.dispatch();
    });
  }

  /** Terminates every worker thread. */
  async close(): Promise<void> {
    this.isClosed = true;
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
    this.slots.length = 0;
  }

  private resolvePolicy(policy: MathPolicyInput | undefined): MathPolicy {
    if (policy === undefined) return defaultMathPolicy;
    let resolved = this.resolvedPolicies.get(policy);
    if (!resolved) {
      resolved = MathPolicySchema.parse(policy);
      this.resolvedPolicies.set(policy, resolved);
    }
    return resolved;
  }

  private busyCount(): number {
    return this.slots.filter((slot) => slot.inFlight.length > 0).length;
  }

  private spawn(existing?: Slot): void {
    const slot: Slot = existing ?? ({ isReady: false, inFlight: [] } as unknown as Slot);
    slot.isReady = false;
    slot.worker = startTsWorker(this.options.workerModule ?? workerModule, { warmUpPolicy: defaultMathPolicy } satisfies MathWorkerData);
    slot.worker.on("message", (message: MathJobResult | { ready: true }) => {
      if ("ready" in message) {
        slot.isReady = true;
        this.dispatch();
        return;
      }
      if (slot.inFlight[0]?.id !== message.id) return;
      this.finish(slot, message.verdict);
    });
    slot.worker.on("error", (error) => this.replace(slot, `grader worker failed: ${error.message}`, false));
    slot.worker.on("exit", () => {
      if (!this.isClosed && slot.inFlight.length > 0) this.replace(slot, "grader worker exited", false);
    });
    if (!existing) this.slots.push(slot);
  }

  private dispatch(): void {
    for (const [index, slot] of this.slots.entries()) {
      if (this.queue.length === 0) return;
      if (!slot.isReady || slot.inFlight.length > 0) continue;
      const chunk = Math.max(1, Math.min(maxChunk, Math.floor(this.queue.length / this.size)));
      slot.inFlight = this.queue.take(index, chunk);
      this.startTimer(slot);
      slot.worker.postMessage({ jobs: slot.inFlight.map((pending) => ({ id: pending.id, job: pending.job })) });
    }
  }

  private startTimer(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      this.replace(slot, `timed out after ${this.options.timeoutMs} ms`, true);
    }, this.options.timeoutMs);
  }

  private finish(slot: Slot, verdict: PooledMathVerdict): void {
    const pending = slot.inFlight.shift();
    clearTimeout(slot.timer);
    pending?.resolve(verdict);
    if (slot.inFlight.length > 0) {
      this.startTimer(slot);
      return;
    }
    this.dispatch();
    // An idle pool must not keep the process alive: a run's pool waits for its next episode's check.
    if (this.queue.length === 0 && this.busyCount() === 0) for (const idle of this.slots) idle.worker.unref();
  }

  /** Ends the slot's current job with a failure verdict, requeues the rest of its chunk, and starts a fresh worker. */
  private replace(slot: Slot, reason: string, isTimeout: boolean): void {
    const [pending, ...rest] = slot.inFlight;
    clearTimeout(slot.timer);
    slot.inFlight = [];
    this.queue.unshift(...rest);
    const stuck = slot.worker;
    stuck.removeAllListeners();
    void stuck.terminate();
    if (pending?.isControl) pending.resolve({ correct: false, reward: 0, reason, infraError: true });
    else if (pending && isTimeout) pending.resolve({ correct: false, reward: 0, reason: `not equivalent: ${reason}`, timedOut: true });
    else if (pending) this.queueControl(slot, pending, reason);
    if (!this.isClosed) this.spawn(slot);
    this.dispatch();
  }

  /**
   * A thread died grading `pending`. The answer may have caused it (a check that exhausts the thread's memory), or the
   * thread may be broken: a known-good check goes first in the slot's lane, which its fresh thread takes first. When it
   * is graded right, the death was the answer's, a scored 0; only when it fails too is the job an infrastructure error.
   */
  private queueControl(slot: Slot, pending: PendingJob, reason: string): void {
    const resolve = (control: PooledMathVerdict) =>
      pending.resolve(
        control.correct
          ? { correct: false, reward: 0, reason: `unparseable: the grading thread died on this answer (${reason})` }
          : { correct: false, reward: 0, reason: `${reason}, and a control check failed right after (${control.reason})`, infraError: true },
      );
    this.queue.unshift({ id: this.nextId++, job: controlJob, resolve, isControl: true, lane: this.slots.indexOf(slot) });
  }
}
