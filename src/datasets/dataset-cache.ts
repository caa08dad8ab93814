/** Where pulled datasets live: <RLLM_HOME>/datasets/<name>/<split>.jsonl, plus a manifest of what was pulled. */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

export const PullManifestSchema = z.object({
  repo: z.string(),
  /** The revision pulled (manifests written before revisions were pinned have none). */
  revision: z.string().optional(),
  pulledAt: z.string(),
  splits: z.record(z.string(), z.object({ rows: z.number().int(), files: z.array(z.string()) })),
});
export type PullManifest = z.infer<typeof PullManifestSchema>;

/** Directory of a pulled dataset. */
export function datasetDirectory(home: string, name: string): string {
  return path.join(home, "datasets", name);
}

/** JSONL file of one pulled split. */
export function cachedSplitPath(home: string, name: string, split: string): string {
  return path.join(datasetDirectory(home, name), `${split}.jsonl`);
}

/** The cached split's path if it was pulled, else undefined (callers fall back to the bundled sample). */
export function findCachedSplit(home: string, name: string, split: string): string | undefined {
  const file = cachedSplitPath(home, name, split);
  return existsSync(file) ? file : undefined;
}

/** The manifest of a pulled dataset, or undefined if it was never pulled. */
export function readPullManifest(home: string, name: string): PullManifest | undefined {
  const file = path.join(datasetDirectory(home, name), "manifest.json");
  if (!existsSync(file)) return undefined;
  return PullManifestSchema.parse(JSON.parse(readFileSync(file, "utf8")));
}
