/** Which LiveCodeBench problems a run takes: a release (`release_v5`: every file up to test5.jsonl) or a contest-date window. */
import { InputError } from "rllm-ts/core";

/** Keeps a row or not, by its `release` and `contest_date`. */
export type WindowFilter = (row: Record<string, unknown>) => boolean;

/**
 * The filter `--split` names: "test" (every release pulled), "release_v<n>" (releases 1..n, as code_generation_lite's
 * version_tag), "release_latest", or "<from>..<to>" contest dates (ISO days, either end may be empty: "2024-08-01..").
 */
export function releaseWindow(split: string): WindowFilter {
  if (split === "test" || split === "release_latest") return () => true;
  const release = /^release_v(\d+)$/.exec(split);
  if (release) return (row) => typeof row.release === "number" && row.release <= Number(release[1]);
  const window = /^(\d{4}-\d{2}-\d{2})?\.\.(\d{4}-\d{2}-\d{2})?$/.exec(split);
  if (window && (window[1] || window[2])) {
    const [from, to] = [window[1] ?? "", window[2] ?? "9999-12-31"];
    return (row) => typeof row.contest_date === "string" && row.contest_date.slice(0, 10) >= from && row.contest_date.slice(0, 10) <= to;
  }
  throw new InputError(`--split ${split}: livecodebench takes test, release_v<n>, release_latest or a contest-date window <from>..<to> (YYYY-MM-DD)`);
}
