/** The remote provider's programs: runs go to the pool of hosts, with the request's memory limit filled in. */
import type { PooledRunResult, RemotePrograms } from "../../core/program-sandbox.js";
import type { RunCodeRequest } from "../../core/sandbox-fusion-protocol.js";
import { SandboxHostPool } from "./sandbox-host-pool.js";

/** How the hosts are used. */
export interface RemoteProgramsOptions {
  apiKey?: string;
  /** Programs sent at once (default 2 per host: more only wait in the services' queues). */
  concurrency?: number;
  /** Each run's memory limit, MiB (default: the service's own). */
  memoryMb?: number;
}

/** The hosts behind `--sandbox URL[,URL…]`. */
export class RemoteProgramHosts implements RemotePrograms {
  readonly kind = "remote";
  readonly notice = undefined;
  readonly concurrency: number;
  private readonly pool: SandboxHostPool;

  constructor(
    urls: string[],
    private readonly options: RemoteProgramsOptions = {},
  ) {
    this.pool = new SandboxHostPool(urls, { apiKey: options.apiKey });
    this.concurrency = options.concurrency ?? 2 * urls.length;
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
