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

/** A Hugging Face dataset the benchmark can pull (`rllm dataset pull <name>`): parquet, JSONL or CSV files at one revision. */
export interface HubDatasetSource {
  repo: string;
  /** The commit (or tag) pulled, so every pull reads the same bytes; "main" when unset. */
  revision?: string;
  /**
   * File paths inside the repo, per split. The extension picks the reader (.parquet, .jsonl, .csv); a path with `*` is
   * a pattern matched against the files the Hub lists in its folder (`data/test-*.parquet`, as the dataset card writes it).
   */
  files: Record<string, string[]>;
  /** The dataset's terms must be accepted on the Hub and HF_TOKEN set before it downloads (GPQA). */
  gated?: boolean;
  /** Turns one row of `file` into the benchmark's cached JSONL row; `index` counts the split's rows. */
  toRow: (row: Record<string, unknown>, index: number, split: string, file: string) => Record<string, unknown>;
}

/** What `rllm dataset list` and `rllm eval --list` say about a benchmark beside its description. */
export interface BenchmarkCatalogEntry {
  /** The group it is listed under. */
  kind: "math" | "code" | "multiple-choice" | "qa" | "agentic";
  /** The full dataset's size, as its source gives it ("30 problems", "12,032 test questions"). */
  size: string;
  /** The data's licence (SPDX id where there is one). */
  licence: string;
  /** How an answer is graded, in a few words ("math verifier on the \\boxed{} answer"). */
  grader: string;
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
  catalog?: BenchmarkCatalogEntry;
}
