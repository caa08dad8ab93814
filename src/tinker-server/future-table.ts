/**
 * The local Tinker server's futures: each mutating request gets a request_id at once and its result later. A poll
 * answers try_again (HTTP 200) or 408 while the work runs or a fault says so, 410 for a lost future, `{error, category}`
 * for a failure, `complete_metadata` when a metadata-only poll meets a payload over the inline limit, else the result.
 */
import type { FaultPlan } from "./server-faults.js";

/** A finished future's value: JSON, or protobuf bytes with the JSON form for clients that do not accept protobuf. */
export type FutureResult = { json: unknown } | { proto: Uint8Array; json: unknown };

/** What a poll answers. */
export type PollAnswer =
  | { kind: "lost" }
  | { kind: "timeout" }
  | { kind: "try_again" }
  | { kind: "error"; message: string; category: string }
  | { kind: "metadata"; size: number }
  | { kind: "result"; result: FutureResult };

interface Future {
  result?: FutureResult;
  error?: { message: string; category: string };
  timeoutsLeft: number;
  tryAgainLeft: number;
  lost: boolean;
  settled: Promise<void>;
  settle: () => void;
}

/** Thrown by a job to fail its future with a category (user for bad input, server for the server's own faults). */
export class FutureFailure extends Error {
  constructor(message: string, readonly category: "unknown" | "server" | "user") {
    super(message);
  }
}

/** The table, with the fault plan it spends. */
export class FutureTable {
  private readonly futures = new Map<string, Future>();
  private count = 0;

  constructor(private readonly faults: FaultPlan, private readonly options: { longPollMs: number; inlineLimitBytes: number }) {}

  /** A new future; `lost` is true when the fault plan loses it (its request must then be dropped, not run). */
  create(): { requestId: string; lost: boolean } {
    const requestId = `future-${++this.count}`;
    const lost = this.faults.lost > 0;
    if (lost) this.faults.lost -= 1;
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    this.futures.set(requestId, { timeoutsLeft: this.faults.timeouts, tryAgainLeft: this.faults.try_again, lost, settled, settle });
    return { requestId, lost };
  }

  /** Runs `job` and stores its result or failure (an injected error category first, while the plan has some). */
  async complete(requestId: string, job: () => Promise<FutureResult>): Promise<void> {
    const future = this.futures.get(requestId)!;
    try {
      if (this.faults.error && this.faults.errors > 0) {
        this.faults.errors -= 1;
        throw new FutureFailure("injected failure", this.faults.error);
      }
      future.result = await job();
    } catch (error) {
      future.error = { message: (error as Error).message, category: error instanceof FutureFailure ? error.category : "server" };
    }
    future.settle();
  }

  /** Answers one poll, waiting up to the long-poll time for the work to finish. */
  async poll(requestId: string, allowMetadataOnly: boolean): Promise<PollAnswer | undefined> {
    const future = this.futures.get(requestId);
    if (!future) return undefined;
    if (future.lost) return { kind: "lost" };
    if (future.timeoutsLeft > 0) {
      future.timeoutsLeft -= 1;
      return { kind: "timeout" };
    }
    if (future.tryAgainLeft > 0) {
      future.tryAgainLeft -= 1;
      return { kind: "try_again" };
    }
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.longPollMs)));
    await Promise.race([future.settled, waited]);
    clearTimeout(timer);
    if (future.error) return { kind: "error", ...future.error };
    if (!future.result) return { kind: "try_again" };
    const size = "proto" in future.result ? future.result.proto.byteLength : JSON.stringify(future.result.json).length;
    if (allowMetadataOnly && size > this.options.inlineLimitBytes) return { kind: "metadata", size };
    return { kind: "result", result: future.result };
  }
}
