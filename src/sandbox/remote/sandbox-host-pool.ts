/**
 * Several SandboxFusion-compatible services as one: each run goes to the host with the fewest runs in flight, a busy
 * host (429/503) is waited on, and a run a host could not do goes to the next one. A host's failure is never evidence
 * against the program (docs/concepts.md, "Whose failure is it"): a 4xx about the request (its size, its run_timeout, a
 * field), a 5xx, a reply that is not a RunCodeResponse, a SandboxError, a run the service could not finish or no reply
 * at all says only that this host did not run this request. A known-good control run tells a broken host (left out for
 * a while) from one that works but could not take this request; either way the run goes to the next host, and when no
 * host did it the caller grades it elsewhere or records an infrastructure error with every host's reason.
 */
import { AllHostsFailedError } from "../../core/errors/all-hosts-failed-error.js";
import type { PooledRunResult } from "../../core/program-sandbox.js";
import type { HostLimits, RunCodeRequest, RunCodeResponse } from "../../core/sandbox-fusion-protocol.js";
import { callRunCode } from "./sandbox-fusion-client.js";
import { HostFailureError } from "./host-failure-error.js";

/** One service and the API key that belongs to it (sent to that service only). */
export interface SandboxHostAddress {
  url: string;
  apiKey?: string;
}

export interface SandboxHostPoolOptions {
  /** Extra time on top of a run's own limits before the request is given up (verl uses 10 s). */
  requestSlackMs?: number;
  /** How long a host that failed its control is left out while others remain. */
  cooldownMs?: number;
  /**
   * Runs in a row a host may fail while passing its control before it is left out as well (default 3): a host that
   * answers 500 to every real program but runs the tiny control would otherwise take its share of every run, each
   * paid for with a failed request and a control run.
   */
  maxFailedRunsInARow?: number;
  /** Busy replies (429/503) waited out per run before it counts as a host failure. */
  maxBusyWaits?: number;
  /** How long the control run may take before the host counts as broken. */
  controlTimeoutMs?: number;
}

const controlRequest: RunCodeRequest = { language: "python", code: "print(6 * 7)", stdin: "", run_timeout: 10, compile_timeout: 10 };

interface HostState {
  url: string;
  apiKey?: string;
  inFlight: number;
  downUntil: number;
  runs: number;
  failures: number;
  /** Runs failed since its last good one while its control passed. */
  failedRunsInARow: number;
  /** The limits the host stated in its last reply (limitHeaders); none for services that state none. */
  limits: HostLimits;
}

/** The hosts behind `--sandbox URL[,URL…]`; `run` sends one request and never grades it twice. */
export class SandboxHostPool {
  private readonly hosts: HostState[];
  private next = 0;

  constructor(
    addresses: SandboxHostAddress[],
    private readonly options: SandboxHostPoolOptions = {},
  ) {
    if (addresses.length === 0) throw new Error("a sandbox host pool needs at least one URL");
    this.hosts = addresses.map(({ url, apiKey }) => ({ url, apiKey, inFlight: 0, downUntil: 0, runs: 0, failures: 0, failedRunsInARow: 0, limits: {} }));
  }

  /** Runs and failures per host, for the run's log. */
  get statistics(): { url: string; runs: number; failures: number }[] {
    return this.hosts.map(({ url, runs, failures }) => ({ url, runs, failures }));
  }

  /** Sends `request` to the least-loaded live host that can take it; a host that did not run it hands it to the next. */
  async run(request: RunCodeRequest, signal?: AbortSignal): Promise<PooledRunResult> {
    const tried = new Set<HostState>();
    const reasons: string[] = [];
    const bodyBytes = Buffer.byteLength(JSON.stringify(request));
    let isRequestRejected = false;
    let slackScale = 1;
    for (let host = this.pick(tried); host; host = this.pick(tried)) {
      tried.add(host);
      const over = overLimits(host.limits, request.run_timeout ?? 10, bodyBytes);
      if (over) {
        isRequestRejected = true;
        reasons.push(`sandbox service ${host.url}: ${over}`);
        continue;
      }
      const outcome = await this.attempt(host, request, slackScale, signal);
      if ("response" in outcome) {
        host.failedRunsInARow = 0;
        return { host: host.url, response: outcome.response, limits: host.limits };
      }
      const { error } = outcome;
      if (error.isRequestRejected) {
        // The host answered, so it works: it refused this request, which may fit another host or fit once split.
        isRequestRejected = true;
        reasons.push(error.message);
        continue;
      }
      if (await this.passesControl(host, signal)) {
        // The host works but did not run this request. A time-out may be time spent in a busy service's queue: such a
        // run is sent once more, with four times the slack.
        if (error.isTimeout && slackScale === 1) {
          slackScale = 4;
          tried.delete(host);
          continue;
        }
        reasons.push(`${error.message} (its control run passed)`);
        host.failedRunsInARow += 1;
        if (host.failedRunsInARow >= (this.options.maxFailedRunsInARow ?? 3)) this.leaveOut(host);
        continue;
      }
      host.failures += 1;
      this.leaveOut(host);
      reasons.push(`${error.message} (its control run failed too)`);
    }
    throw new AllHostsFailedError(reasons, isRequestRejected);
  }

  /** Leaves `host` out for the cooldown while other hosts remain (pick still tries it when none does). */
  private leaveOut(host: HostState): void {
    host.downUntil = Date.now() + (this.options.cooldownMs ?? 30_000);
    host.failedRunsInARow = 0;
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
          const response = await callRunCode(host.url, request, { apiKey: host.apiKey, timeoutMs, signal, onLimits: (limits) => (host.limits = limits) });
          const unfinished = unfinishedRun(response);
          return unfinished ? { error: new HostFailureError(host.url, unfinished) } : { response };
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
      const response = await callRunCode(host.url, controlRequest, { apiKey: host.apiKey, timeoutMs: this.options.controlTimeoutMs ?? 30_000, signal });
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

/**
 * Why a reply is not a run of the program, or undefined when it is: a SandboxError, no run result, or a run the service
 * could not finish (SandboxFusion's CommandRunStatus Error: an exception of the service's own).
 */
function unfinishedRun(response: RunCodeResponse): string | undefined {
  if (response.status === "SandboxError") return `SandboxError: ${response.message}`;
  const run = response.run_result;
  if (!run) return `no run result (${response.status}: ${response.message})`;
  if (run.status === "Error") return `the service could not finish the run: ${(run.stderr ?? response.message).slice(0, 200)}`;
  return undefined;
}

/** Why `limits` rule out a request of `runTimeoutSeconds` and `bodyBytes`, or undefined when they do not. */
function overLimits(limits: HostLimits, runTimeoutSeconds: number, bodyBytes: number): string | undefined {
  if (limits.runTimeoutSeconds !== undefined && runTimeoutSeconds > limits.runTimeoutSeconds) return `run_timeout ${runTimeoutSeconds} s is over its limit of ${limits.runTimeoutSeconds} s`;
  if (limits.bodyBytes !== undefined && bodyBytes > limits.bodyBytes) return `a ${bodyBytes}-byte request is over its limit of ${limits.bodyBytes} bytes`;
  return undefined;
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
