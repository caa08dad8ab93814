/** Turns a split's file patterns (`data/test-*.parquet`) into the files the Hub holds at the revision, through its tree API. */
import { z } from "zod";
import type { HubDatasetSource } from "../core/benchmark.js";
import { InputError } from "../core/errors/input-error.js";

// GET /api/datasets/<repo>/tree/<revision>/<folder> answers a list of entries; we read only the two fields we use.
const TreeSchema = z.array(z.object({ type: z.string(), path: z.string() }));

/**
 * The files of `patterns`, in order: a plain path as it is, a pattern (`*` matches within one path segment) as the
 * sorted files of its folder that match it. `download` fetches a URL (the token and error handling are the caller's).
 */
export async function resolveHubFiles(
  endpoint: string,
  hub: Pick<HubDatasetSource, "repo" | "revision">,
  patterns: readonly string[],
  download: (url: string) => Promise<ArrayBuffer>,
): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of patterns) {
    if (!pattern.includes("*")) {
      files.push(pattern);
      continue;
    }
    const folder = pattern.includes("/") ? pattern.slice(0, pattern.lastIndexOf("/")) : "";
    const url = `${endpoint}/api/datasets/${hub.repo}/tree/${encodeURIComponent(hub.revision ?? "main")}${folder ? `/${folder}` : ""}`;
    const parsed = TreeSchema.safeParse(parseJson(await download(url)));
    if (!parsed.success) throw new InputError(`${url}: not a Hub file listing (${parsed.error.issues[0]?.message})`);
    const matcher = patternExpression(pattern);
    const matched = parsed.data.filter((entry) => entry.type === "file" && matcher.test(entry.path)).map((entry) => entry.path).sort();
    if (matched.length === 0) throw new InputError(`${url}: no file matches ${pattern}`);
    files.push(...matched);
  }
  return files;
}

function parseJson(body: ArrayBuffer): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
}

/** `data/test-*.parquet` → /^data\/test-[^/]*\.parquet$/ */
function patternExpression(pattern: string): RegExp {
  const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, "\\$&"));
  return new RegExp(`^${escaped.join("[^/]*")}$`);
}
