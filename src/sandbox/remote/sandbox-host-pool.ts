/**
 * Several SandboxFusion-compatible services as one: each run goes to the host with the fewest runs in flight, a busy
 * host (429/503) is waited on, and a failed host is retried elsewhere. Whose fault a failure was is decided by a
 * known-good control run on the same host right after (docs/concepts.md, "infrastructure errors"): if the control
 * passes, the host works and the run's own program made it fail, which is the candidate's failure, not the host's.
 */
import { callRunCode } from "./sandbox-fusion-client.js";
import { HostFailureError } from "./host-failure-error.js";
import type { RunCodeRequest, RunCodeResponse } from "../../core/sandbox-fusion-protocol.js";

export interface SandboxHostPoolOptions {
  apiKey?: string;
  /** Extra time on top of a run's own limits before the request is given up (verl uses 10 s). */
  requestSlackMs?: number;
  /** How long a host that failed its control is left out while others remain. */
  cooldownMs?: number;
  /** Busy replies (429/503) waited out per run before it counts as a host failure. */
  maxBusyWaits?: number;
  /** How long the control run may take before the host counts as broken. */
  controlTimeoutMs?: number;
}

/**
 * A run's outcome: the host's reply, or a failure the control run proved to be the program's own doing (`isTimeout`:
 * the service kept no time limit on it, twice, though it answered the control).
 */
export type PooledRunResult =
  | { kind: "reply"; host: string; response: RunCodeResponse }
  | { kind: "program-failure"; host: string; reason: string; isTimeout: boolean };

/** Every host failed its control: an infrastructure error, with each host's reason. */
export class AllHostsFailedError extends Error {
  constructor(readonly reasons: string[]) {
    super(`every sandbox service failed: ${reasons.join("; ")}`);
    this.name = "AllHostsFailedError";
  }
}

const controlRequest: RunCodeRequest = { language: "python", code: "print(6 * 7)", stdin: "", run_timeout: 10, compile_timeout: 10 };

interface HostState {
  url: string;
  inFlight: number;
  downUntil: number;
  runs: number;
  failures: number;
}

/** The hosts behind `--sandbox-url`; `run` sends one request and never grades it twice. */
export class SandboxHostPool {
  private readonly hosts: HostState[];
  private next = 0;

  constructor(
    urls: string[],
    private readonly options: SandboxHostPoolOptions = {},
  ) {
    if (urls.length === 0) throw new Error("a sandbox host pool needs at least one URL");
    this.hosts = urls.map((url) => ({ url, inFlight: 0, downUntil: 0, runs: 0, failures: 0 }));
  }

  /** Runs and failures per host, for the run's log. */
  get statistics(): { url: string; runs: number; failures: number }[] {
    return this.hosts.map(({ url, runs, failures }) => ({ url, runs, failures }));
  }

  /** Sends `request` to the least-loaded live host; on a host failure, checks the host and moves on if it is broken. */
  async run(request: RunCodeRequest, signal?: AbortSignal): Promise<PooledRunResult> {
    const tried = new Set<HostState>();
    const reasons: string[] = [];
    let slackScale = 1;
    for (let host = this.pick(tried); host; host = this.pick(tried)) {
      tried.add(host);
      const outcome = await this.attempt(host, request, slackScale, signal);
      if ("response" in outcome) return { kind: "reply", host: host.url, response: outcome.response };
      // The host failed this run. If it still passes the control, the program made it fail, except that a time-out
      // may be time spent in a busy service's queue: such a run is sent once more, with four times the slack.
      if (await this.passesControl(host, signal)) {
        if (outcome.error.isTimeout && slackScale === 1) {
          slackScale = 4;
          tried.delete(host);
          continue;
        }
        return { kind: "program-failure", host: host.url, reason: outcome.error.reason, isTimeout: outcome.error.isTimeout };
      }
      host.failures += 1;
      host.downUntil = Date.now() + (this.options.cooldownMs ?? 30_000);
      reasons.push(outcome.error.message);
    }
    throw new AllHostsFailedError(reasons);
  }

  private async attempt(
    host: HostState,
    request: RunCodeRequest,
    slackScale: number,
    signal?: AbortSignal,
  ): Promise<{ response: RunCodeResponse } | { error: HostFailureError }> {
    const timeoutMs = ((request.compile_timeout ?? 10) + (request.run_timeout ?? 10)) * 1000 + slackScale * (this.options.requestSlackMs ?? 10_000);
    host.inFlight += 1;
    host.runs += 1;
    try {
      for (let busyWaits = 0; ; busyWaits += 1) {
        try {
          const response = await callRunCode(host.url, request, { apiKey: this.options.apiKey, timeoutMs, signal });
          // SandboxError: the service could not run the program at all; the control run decides whose fault.
          if (response.status === "SandboxError") return { error: new HostFailureError(host.url, `SandboxError: ${response.message}`) };
          return { response };
        } catch (error) {
          if (!(error instanceof HostFailureError)) throw error;
          if (!error.isBusy || busyWaits >= (this.options.maxBusyWaits ?? 20)) return { error };
          await sleep(Math.min(error.retryAfterMs ?? 1000, 10_000), signal);
        }
      }
    } finally {
      host.inFlight -= 1;
    }
  }

  private async passesControl(host: HostState, signal?: AbortSignal): Promise<boolean> {
    try {
      const response = await callRunCode(host.url, controlRequest, { apiKey: this.options.apiKey, timeoutMs: this.options.controlTimeoutMs ?? 30_000, signal });
      return response.status === "Success" && response.run_result?.stdout?.trim() === "42";
    } catch (error) {
      if (signal?.aborted) throw error;
      return false;
    }
  }

  /** The live host with the fewest runs in flight (round robin among equals), else a cooled-down one not yet tried. */
  private pick(tried: Set<HostState>): HostState | undefined {
    const untried = this.hosts.filter((host) => !tried.has(host));
    const now = Date.now();
    const live = untried.filter((host) => host.downUntil <= now);
    const candidates = live.length > 0 ? live : untried;
    if (candidates.length === 0) return undefined;
    const fewest = Math.min(...candidates.map((host) => host.inFlight));
    const least = candidates.filter((host) => host.inFlight === fewest);
    this.next = (this.next + 1) % least.length;
    return least[this.next];
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}
