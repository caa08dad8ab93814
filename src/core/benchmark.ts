/** A Benchmark: a data source, its default cookbook, and where to pull the full dataset from. */
import type { Task } from "./task.js";

export interface LoadTasksOptions {
  /** A user JSONL file that replaces the benchmark's own data. */
  dataFile?: string;
  /** Split to load ("test" by default); benchmarks without splits ignore it. */
  split?: string;
  /** Cache root (RLLM_HOME) where pulled datasets live. */
  home: string;
  /** Receives what the loader read but will not act on (unsupported task fields), one line each; the CLI prints them. */
  warn?: (message: string) => void;
}

/** A Hugging Face dataset the benchmark can pull as parquet files (`rllm dataset pull <name>`). */
export interface HubDatasetSource {
  repo: string;
  /** Parquet file paths inside the repo, per split. */
  files: Record<string, string[]>;
  /** Turns one parquet row into the benchmark's cached JSONL row. */
  toRow: (row: Record<string, unknown>, index: number, split: string) => Record<string, unknown>;
}

export interface Benchmark {
  name: string;
  description: string;
  /** Name of the cookbook (in cookbooks/) that runs this benchmark unless --cookbook says otherwise. */
  defaultCookbook: string;
  loadTasks(options: LoadTasksOptions): Promise<Task[]>;
  hub?: HubDatasetSource;
  /** A custom download for sources that are not plain parquet (e.g. an archive); used by `rllm dataset pull` instead of `hub`. */
  pull?: (options: { home: string; endpoint?: string; onFile?: (file: string, rows: number) => void }) => Promise<{ splits: Record<string, { rows: number }> }>;
  /** Path of the bundled offline sample, relative to the package root. */
  bundledSample?: string;
}
