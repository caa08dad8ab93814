/**
 * A run's resources as their owner holds them: the sandbox `--sandbox` chose, and the pools opened on it, each once,
 * on the first request or ahead of it (`warm`), shared by every episode, recorded for config.json and closed with the
 * run (also when Ctrl-C ends it). `rllm eval`, `rllm grade` and `rllm train` each open them and close them in a
 * `finally`; flows and evaluators see them as `RunResources` (rllm-ts/core).
 */
import type { PoolDefinition, RunResources } from "../core/run-resources.js";
import type { Sandbox, SandboxRecord } from "../core/sandbox.js";
import { defaultSandboxSetting, type SandboxSetting } from "../core/sandbox-setting.js";
import { openSandbox } from "./open-sandbox.js";

/** What the resources are opened with. */
export interface RunResourceOptions {
  /** The run's sandbox (default: local). */
  sandbox?: SandboxSetting;
  /** A sandbox to use as it is (tests, a library user's own provider) instead of opening `sandbox`. */
  provider?: Sandbox;
  /** Workers or slots each pool opens (default: each pool's own, all cores). */
  concurrency?: number;
}

/** What config.json records of a run's resources (not compared by --resume: it is what the machine gave). */
export interface ResourcesRecord {
  sandbox: SandboxRecord;
  /** Each open pool by name: its size and where it runs. */
  pools: Record<string, Record<string, unknown>>;
}

/** The resources and their owner's handle: opening ahead, the record, and closing. */
export interface OwnedRunResources extends RunResources {
  /** Opens `definitions` now (a cookbook's or a verifier's), so they are warm for the first episode; rejects as opening does. */
  warm(definitions: readonly PoolDefinition<unknown>[]): Promise<void>;
  record(): ResourcesRecord;
  /** Closes every pool opened (those still opening too); safe to call twice. */
  close(): Promise<void>;
}

interface OpenPool {
  definition: PoolDefinition<unknown>;
  pool: Promise<unknown>;
  /** Set once it opened, for the record. */
  opened?: unknown;
}

/** Opens the sandbox now (no process starts until a pool or an environment needs one). */
export function openRunResources(options: RunResourceOptions = {}): OwnedRunResources {
  const sandbox = options.provider ?? openSandbox(options.sandbox ?? defaultSandboxSetting);
  const pools = new Map<PoolDefinition<unknown>, OpenPool>();
  let isClosed = false;
  const open = <Pool>(definition: PoolDefinition<Pool>): Promise<Pool> => {
    const known = pools.get(definition as PoolDefinition<unknown>);
    if (known) return known.pool as Promise<Pool>;
    if (isClosed) return Promise.reject(new Error(`the run is over: its pool "${definition.name}" cannot open`));
    const entry: OpenPool = { definition: definition as PoolDefinition<unknown>, pool: Promise.resolve() };
    entry.pool = definition.open({ sandbox, ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}) }).then((pool) => {
      entry.opened = pool;
      return pool;
    });
    // Whoever asks for it sees a failure; one warmed and never asked for is reported by `warm`'s caller.
    entry.pool.catch(() => undefined);
    pools.set(definition as PoolDefinition<unknown>, entry);
    return entry.pool as Promise<Pool>;
  };
  return {
    sandbox,
    pool: open,
    async warm(definitions) {
      await Promise.all(definitions.map((definition) => open(definition)));
    },
    record() {
      const opened = [...pools.values()].filter((entry) => entry.opened !== undefined);
      return { sandbox: sandbox.record(), pools: Object.fromEntries(opened.map((entry) => [entry.definition.name, entry.definition.describe(entry.opened)])) };
    },
    async close() {
      isClosed = true;
      const entries = [...pools.values()];
      pools.clear();
      await Promise.all(entries.map(async (entry) => {
        const pool = await entry.pool.catch(() => undefined);
        if (pool !== undefined) await entry.definition.close(pool);
      }));
    },
  };
}
