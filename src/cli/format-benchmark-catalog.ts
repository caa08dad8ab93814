/** The benchmark catalogue `rllm dataset list` and `rllm eval --list` print: grouped by kind, each with size, licence, grader, data. */
import { existsSync, readFileSync } from "node:fs";
import type { Benchmark, BenchmarkCatalogEntry } from "../core/benchmark.js";
import { packagePath } from "../core/package-root.js";
import type { PullManifest } from "../datasets/dataset-cache.js";

// Groups in the order a reader looks for them; a benchmark without a catalog entry is listed under "other".
const kindTitles: Record<BenchmarkCatalogEntry["kind"] | "other", string> = {
  math: "math",
  code: "code",
  "multiple-choice": "multiple choice",
  qa: "question answering",
  agentic: "agentic and tool use",
  other: "other",
};

/** Rows in a bundled JSONL sample (a folder of tasks counts as its description says). */
function sampleRows(sample: string): number | undefined {
  const file = packagePath(sample);
  if (!sample.endsWith(".jsonl") || !existsSync(file)) return undefined;
  return readFileSync(file, "utf8").split("\n").filter((line) => line.trim() !== "").length;
}

/** What data a benchmark has here: the pulled splits, or whether it can be pulled, and its sample. */
function dataLine(benchmark: Benchmark, manifest: PullManifest | undefined): string {
  const pulled = manifest
    ? `pulled ${Object.entries(manifest.splits).map(([split, { rows }]) => `${split} ${rows}`).join(", ")}`
    : benchmark.hub
      ? `not pulled (hf:${benchmark.hub.repo}${benchmark.hub.gated ? ", gated: HF_TOKEN" : ""})`
      : benchmark.pull
        ? "not pulled (custom download)"
        : "nothing to pull";
  const rows = benchmark.bundledSample ? sampleRows(benchmark.bundledSample) : undefined;
  const sample = benchmark.bundledSample ? `sample ${rows === undefined ? benchmark.bundledSample : `${rows} rows`}` : "no sample";
  return `${pulled} · ${sample}`;
}

/**
 * The catalogue as lines: a heading per kind, then per benchmark its name, facts and data, and its description. Names
 * are padded to `nameWidth` at least, so lines printed after the catalogue (the user's datasets) can share its column.
 */
export function formatBenchmarkCatalog(benchmarks: readonly Benchmark[], manifestOf: (name: string) => PullManifest | undefined, nameWidth = 0): string[] {
  const width = Math.max(nameWidth, ...benchmarks.map((benchmark) => benchmark.name.length));
  const lines: string[] = [];
  for (const kind of Object.keys(kindTitles) as (keyof typeof kindTitles)[]) {
    const members = benchmarks.filter((benchmark) => (benchmark.catalog?.kind ?? "other") === kind);
    if (members.length === 0) continue;
    lines.push(`${kindTitles[kind]}:`);
    for (const benchmark of members) {
      const facts = benchmark.catalog ? `${benchmark.catalog.size} · ${benchmark.catalog.licence} · grader: ${benchmark.catalog.grader} · ` : "";
      lines.push(`  ${benchmark.name.padEnd(width)}  ${facts}${dataLine(benchmark, manifestOf(benchmark.name))}`);
      lines.push(`  ${"".padEnd(width)}  ${benchmark.description}`);
    }
  }
  return lines;
}
