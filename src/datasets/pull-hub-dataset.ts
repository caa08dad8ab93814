/**
 * `rllm dataset pull`: downloads a benchmark's Hugging Face files (parquet, JSONL or CSV) at its pinned revision,
 * converts each row, and caches the splits as JSONL.
 */
import { mkdirSync, writeFileSync, renameSync } from "node:fs";
import path from "node:path";
import type { Benchmark, HubDatasetSource } from "../core/benchmark.js";
import { InputError } from "../core/errors/input-error.js";
import { cachedSplitPath, datasetDirectory, type PullManifest } from "./dataset-cache.js";
import { readHubFileRows } from "./read-hub-file-rows.js";
import { resolveHubFiles } from "./resolve-hub-files.js";

export interface PullOptions {
  home: string;
  /** Hub base URL; HF_ENDPOINT (a mirror) overrides the default. */
  endpoint?: string;
  /** Hugging Face access token for gated datasets; HF_TOKEN when not given. */
  token?: string;
  fetchFile?: (url: string, init?: RequestInit) => Promise<Response>;
  onFile?: (file: string, rows: number) => void;
}

/**
 * Error for a dataset that could not be fetched, pointing at what works offline. Whether the embedded model can run the
 * bundled sample decides the advice (`embeddedModelFits`; the CLI checks it, the pull does not know): `rllm eval` alone,
 * or with an endpoint of your own.
 */
export class DatasetUnavailableError extends Error {
  constructor(
    readonly dataset: string,
    readonly url: string,
    readonly reason: string,
    readonly bundledSample: string | undefined,
    readonly embeddedModelFits?: boolean,
  ) {
    super(`could not download ${url} (${reason}). ${offlineAdvice(dataset, bundledSample, embeddedModelFits)}`);
    this.name = "DatasetUnavailableError";
  }
}

function offlineAdvice(dataset: string, bundledSample: string | undefined, embeddedModelFits: boolean | undefined): string {
  if (!bundledSample) return "This benchmark has no bundled sample; pass your own rows with --data.";
  const sample = `The bundled sample (${bundledSample}) works offline, without pulling: \`rllm dataset show ${dataset}\` shows it`;
  if (embeddedModelFits === true) return `${sample}, and \`rllm eval ${dataset}\` runs it on the embedded model.`;
  const endpoint = `\`rllm eval ${dataset} --base-url <url> --model <name>\` runs it on an OpenAI-compatible endpoint of yours`;
  if (embeddedModelFits === false) return `${sample}, and ${endpoint} (its prompts do not fit the embedded tiny model, which answers arithmetic).`;
  return `${sample}, and ${endpoint}.`;
}

/** The Hub URL of one file of `hub` at its revision. */
function hubFileUrl(endpoint: string, hub: Pick<HubDatasetSource, "repo" | "revision">, file: string): string {
  return `${endpoint}/datasets/${hub.repo}/resolve/${encodeURIComponent(hub.revision ?? "main")}/${file}`;
}

/** Pulls every split of `benchmark.hub` into the cache; returns the manifest written. */
export async function pullHubDataset(benchmark: Benchmark, options: PullOptions): Promise<PullManifest> {
  const hub = benchmark.hub;
  if (!hub) throw new InputError(`benchmark "${benchmark.name}" has no Hugging Face source to pull`);
  const endpoint = (options.endpoint ?? process.env.HF_ENDPOINT ?? "https://huggingface.co").replace(/\/$/, "");
  const token = options.token ?? (process.env.HF_TOKEN || undefined);
  const download = { ...options, token };
  const directory = datasetDirectory(options.home, benchmark.name);
  const manifest: PullManifest = { repo: hub.repo, revision: hub.revision ?? "main", pulledAt: new Date().toISOString(), splits: {} };

  for (const [split, patterns] of Object.entries(hub.files)) {
    const files = await resolveHubFiles(endpoint, hub, patterns, (url) => downloadDatasetFile(url, benchmark, download));
    const lines: string[] = [];
    for (const file of files) {
      const url = hubFileUrl(endpoint, hub, file);
      const rows = await readHubFileRows(url, file, await downloadDatasetFile(url, benchmark, download));
      const offset = lines.length;
      for (const [index, row] of rows.entries()) lines.push(JSON.stringify(convertRow(hub, { url, file }, row, { index: offset + index, inFile: index }, split), jsonSafe));
      options.onFile?.(file, rows.length);
    }
    // Created only now that a split is in hand, so a failed pull leaves no empty dataset folder behind.
    mkdirSync(directory, { recursive: true });
    // Written whole through a rename, so an interrupted pull never leaves a half split behind.
    const target = cachedSplitPath(options.home, benchmark.name, split);
    writeFileSync(`${target}.tmp`, lines.join("\n") + "\n");
    renameSync(`${target}.tmp`, target);
    manifest.splits[split] = { rows: lines.length, files };
  }
  writeFileSync(path.join(directory, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return manifest;
}

/** One row through the benchmark's converter; a row it refuses is an InputError naming the file and the row. */
function convertRow(
  hub: HubDatasetSource,
  where: { url: string; file: string },
  row: Record<string, unknown>,
  position: { index: number; inFile: number },
  split: string,
): Record<string, unknown> {
  try {
    return hub.toRow(row, position.index, split, where.file);
  } catch (error) {
    throw new InputError(`${where.url}: row ${position.inFile}: ${(error as Error).message}`);
  }
}

/** The body of one dataset file; an unreachable network or an HTTP error is a DatasetUnavailableError naming the URL. */
export async function downloadDatasetFile(
  url: string,
  benchmark: Pick<Benchmark, "name" | "bundledSample" | "hub">,
  options: Pick<PullOptions, "fetchFile" | "token">,
): Promise<ArrayBuffer> {
  const fetchFile = options.fetchFile ?? ((target: string, init?: RequestInit) => fetch(target, init));
  // The Hub reads a user access token as a bearer token; a gated dataset answers 401/403 without one.
  const init = options.token ? { headers: { authorization: `Bearer ${options.token}` } } : undefined;
  let response: Response;
  try {
    response = await fetchFile(url, init);
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new DatasetUnavailableError(benchmark.name, url, `network unreachable${cause ? `: ${cause}` : ""}`, benchmark.bundledSample);
  }
  if ((response.status === 401 || response.status === 403) && benchmark.hub?.gated) {
    const reason = options.token
      ? `HTTP ${response.status}: the token in HF_TOKEN has no access; accept the dataset's terms on its Hub page with that account`
      : `HTTP ${response.status}: ${benchmark.hub.repo} is gated; accept its terms on its Hub page and set HF_TOKEN`;
    throw new DatasetUnavailableError(benchmark.name, url, reason, benchmark.bundledSample);
  }
  if (!response.ok) throw new DatasetUnavailableError(benchmark.name, url, `HTTP ${response.status}`, benchmark.bundledSample);
  return response.arrayBuffer();
}

/** BigInt (parquet INT64) becomes a number when safe, else a string; bytes become base64. */
function jsonSafe(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  return value;
}
