/** Opens the code grader a run asked for: remote sandbox services when URLs are given, else the local bubblewrap slots. */
import { CodeGrader, type CodeGraderOptions } from "./code-grader.js";
import type { ProgramGrader } from "./program-grader.js";
import { RemoteCodeGrader } from "./remote/remote-code-grader.js";
import { takeSpareCodeGrader } from "./spare-code-grader.js";

export interface RemoteSandboxOptions {
  /** SandboxFusion-compatible services (their root or their /run_code URL). */
  urls: string[];
  apiKey?: string;
}

/**
 * The grader for `options`; with `remote`, runs go to the services and only assert tests (whose expected values must
 * not reach the program) open the local sandbox, on first need.
 */
export async function openProgramGrader(options: CodeGraderOptions, remote?: RemoteSandboxOptions): Promise<ProgramGrader> {
  // The grader `rllm grade` opened while it started, when it was opened for these options (spare-code-grader.ts).
  if (!remote || remote.urls.length === 0) return takeSpareCodeGrader(options) ?? CodeGrader.create(options);
  return new RemoteCodeGrader({
    urls: remote.urls,
    apiKey: remote.apiKey,
    timeoutSeconds: options.timeoutSeconds ?? 6,
    runAllTests: options.runAllTests ?? false,
    floatTolerance: options.floatTolerance,
    memoryMb: options.limits?.memoryBytes ? Math.round(options.limits.memoryBytes / 1024 ** 2) : undefined,
    concurrency: options.concurrency,
    openLocal: () => CodeGrader.create(options),
  });
}

/** `--sandbox-url a,b` as a list of URLs; a malformed one is named. */
export function parseSandboxUrls(text: string): string[] {
  const urls = text.split(",").map((url) => url.trim()).filter((url) => url !== "");
  for (const url of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`--sandbox-url: "${url}" is not a URL`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`--sandbox-url: "${url}" is not an http(s) URL`);
  }
  return urls;
}
