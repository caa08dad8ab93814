/** Opens the code grader a run asked for: remote sandbox services when URLs are given, else the local bubblewrap slots. */
import type { SandboxServices } from "rllm-ts/core";
import { probeSandboxHost, runCodeUrl, SandboxUnavailableError, type SandboxHostAddress } from "rllm-ts/sandbox";
import { CodeGrader, type CodeGraderOptions } from "./code-grader.js";
import type { ProgramGrader } from "./program-grader.js";
import { RemoteCodeGrader } from "./remote/remote-code-grader.js";
import { takeSpareCodeGrader } from "./spare-code-grader.js";

export interface RemoteSandboxOptions {
  /** SandboxFusion-compatible services (their root or their /run_code URL), each with the API key that belongs to it. */
  hosts: SandboxHostAddress[];
}

/**
 * The grader for `options`; with `remote`, runs go to the services and only assert tests (whose expected values must
 * not reach the program) open the local sandbox, on first need.
 */
export async function openProgramGrader(options: CodeGraderOptions, remote?: RemoteSandboxOptions): Promise<ProgramGrader> {
  // The grader `rllm grade` opened while it started, when it was opened for these options (spare-code-grader.ts).
  if (!remote || remote.hosts.length === 0) return takeSpareCodeGrader(options) ?? CodeGrader.create(options);
  await assertSomeHostAnswers(remote.hosts);
  return new RemoteCodeGrader({
    hosts: remote.hosts,
    timeoutSeconds: options.timeoutSeconds ?? 6,
    runAllTests: options.runAllTests ?? false,
    floatTolerance: options.floatTolerance,
    memoryMb: options.limits?.memoryBytes ? Math.round(options.limits.memoryBytes / 1024 ** 2) : undefined,
    concurrency: options.concurrency,
    openLocal: () => CodeGrader.create(options),
  });
}

/**
 * The services' pre-flight, as `rllm eval` checks its endpoint: when none of them answers, nothing could be graded, so
 * the run stops here naming each one and why, instead of recording every row as an infrastructure error. Services that
 * answer are used; the pool retries a run that a dead one fails on another.
 */
async function assertSomeHostAnswers(hosts: readonly SandboxHostAddress[]): Promise<void> {
  const problems = await Promise.all(hosts.map(async (host) => ({ url: host.url, problem: await probeSandboxHost(host.url) })));
  if (problems.some(({ problem }) => problem === undefined)) return;
  throw new SandboxUnavailableError(
    `no sandbox service answered: ${problems.map(({ url, problem }) => `${url} (${problem})`).join(", ")}`,
    "Start one (rllm sandbox serve) or name services that run (--sandbox-url, or sandbox.urls in $RLLM_HOME/config.json)",
  );
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

/**
 * `urls` with the API key of each: the variable its entry in config.json's `sandbox.urls` names, else the shared one
 * (`sandbox.apiKeyEnv`, default RLLM_SANDBOX_API_KEY). A key named for one service never goes to another.
 */
export function sandboxHostAddresses(urls: string[], services: SandboxServices | undefined, environment: Record<string, string | undefined>): SandboxHostAddress[] {
  const sharedKey = environment[services?.apiKeyEnv ?? "RLLM_SANDBOX_API_KEY"] || undefined;
  return urls.map((url) => {
    const entry = services?.urls.find((candidate) => typeof candidate !== "string" && runCodeUrl(candidate.url) === runCodeUrl(url));
    const apiKey = entry && typeof entry !== "string" ? environment[entry.apiKeyEnv] || undefined : sharedKey;
    return apiKey ? { url, apiKey } : { url };
  });
}

/** The URLs config.json's `sandbox.urls` lists. */
export function configuredSandboxUrls(services: SandboxServices): string[] {
  return services.urls.map((entry) => (typeof entry === "string" ? entry : entry.url));
}
