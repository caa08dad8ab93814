/** The remote provider's programs: runs go to the pool of hosts, with the request's memory limit filled in. */
import type { PooledRunResult, RemotePrograms } from "../../core/program-sandbox.js";
import type { RunCodeRequest } from "../../core/sandbox-fusion-protocol.js";
import { SandboxUnavailableError } from "../sandbox-unavailable-error.js";
import { probeSandboxHost } from "./sandbox-fusion-client.js";
import { SandboxHostPool, type SandboxHostAddress } from "./sandbox-host-pool.js";

/** How the hosts are used. */
export interface RemoteProgramsOptions {
  /** Programs sent at once (default 2 per host: more only wait in the services' queues). */
  concurrency?: number;
  /** Each run's memory limit, MiB (default: the service's own). */
  memoryMb?: number;
}

/**
 * The hosts, once one of them answers: as `rllm eval` checks its endpoint, a run whose services are all dead stops
 * here with SandboxUnavailableError naming each one and why, instead of recording every row as an infrastructure
 * error. Services that answer are used; the pool retries a run that a dead one fails on another.
 */
export async function openRemotePrograms(hosts: SandboxHostAddress[], options: RemoteProgramsOptions = {}): Promise<RemoteProgramHosts> {
  const problems = await Promise.all(hosts.map(async (host) => ({ url: host.url, problem: await probeSandboxHost(host.url) })));
  if (problems.every(({ problem }) => problem !== undefined)) {
    throw new SandboxUnavailableError(
      `no sandbox service answered: ${problems.map(({ url, problem }) => `${url} (${problem})`).join(", ")}`,
      "Start one (rllm sandbox serve) or name services that run (--sandbox URL[,URL…], or sandbox in $RLLM_HOME/config.json)",
    );
  }
  return new RemoteProgramHosts(hosts, options);
}

/** The hosts behind `--sandbox URL[,URL…]`, each with its own key. */
export class RemoteProgramHosts implements RemotePrograms {
  readonly kind = "remote";
  readonly notice = undefined;
  readonly concurrency: number;
  private readonly pool: SandboxHostPool;

  constructor(
    hosts: SandboxHostAddress[],
    private readonly options: RemoteProgramsOptions = {},
  ) {
    this.pool = new SandboxHostPool(hosts);
    this.concurrency = options.concurrency ?? 2 * hosts.length;
  }

  get statistics(): { url: string; runs: number; failures: number }[] {
    return this.pool.statistics;
  }

  run(request: RunCodeRequest, signal?: AbortSignal): Promise<PooledRunResult> {
    const memory = this.options.memoryMb !== undefined && request.memory_limit_MB === undefined ? { memory_limit_MB: this.options.memoryMb } : {};
    return this.pool.run({ ...request, ...memory }, signal);
  }

  async close(): Promise<void> {
    // Nothing is held between requests: each run is one HTTP request.
  }
}
