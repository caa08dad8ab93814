/**
 * docs/package.md's library examples ("Running an eval from code", "Planning and running an eval as `rllm eval` does"),
 * run as written: the user's cookbook and the eval scripts are taken from the page's code blocks, with `rllm-ts` pointed at the sources, so the page cannot drift from the API.
 * Each script runs as a user runs it, `npx tsx script.ts`, in a project made as `npm init -y` makes one (CommonJS).
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeBlockAfter } from "../helpers/doc-code-block.js";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const page = readFileSync(path.join(repository, "docs/package.md"), "utf8");
const folder = mkdtempSync(path.join(tmpdir(), "rllm-library-example-"));
let server: ScriptedServer;
const tsx = path.join(path.dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/cli.mjs");

/**
 * `npx tsx <script>` in the example's project; rejects with its output unless it exits 0. tsx reads the checkout's
 * tsconfig.json, whose paths point `rllm-ts` and its entries at the sources, as they do for vitest.
 */
function runScript(script: string, environment: NodeJS.ProcessEnv): Promise<string> {
  const env = { ...process.env, ...environment, TSX_TSCONFIG_PATH: path.join(repository, "tsconfig.json") };
  const child = spawn(process.execPath, [tsx, script], { cwd: folder, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve, reject) => child.on("close", (code) => (code === 0 ? resolve(output) : reject(new Error(`${script} exited ${code}:\n${output}`)))));
}

beforeAll(async () => {
  // The model shouts correctly for "hello" only; the judge rates both candidates alike.
  server = await startScriptedServer((body) => {
    const text = lastUserText(body);
    if (/rating/i.test(text)) return { text: "<rating_A>5</rating_A><rating_B>5</rating_B>" };
    return { text: text.includes("hello") ? "hello" : "farewell" };
  });
  // What `npm init -y` writes: a CommonJS project, where tsx cannot compile a top-level await.
  writeFileSync(path.join(folder, "package.json"), JSON.stringify({ name: "user-project", version: "1.0.0", main: "index.js", type: "commonjs" }));
  writeFileSync(path.join(folder, "my-cookbook.ts"), codeBlockAfter(page, "`my-cookbook.ts`:"));
  const example = codeBlockAfter(page, "### Running an eval from code");
  writeFileSync(path.join(folder, "first-run.ts"), example);
  writeFileSync(path.join(folder, "second-run.ts"), example);
  writeFileSync(path.join(folder, "planned-run.ts"), codeBlockAfter(page, "### Planning and running an eval as `rllm eval` does"));
  writeFileSync(path.join(folder, "eval-set.ts"), codeBlockAfter(page, "An eval set (`rllm eval --config`) is `evaluateSet"));
});

afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

describe("the library eval example of docs/package.md", () => {
  it("runs an eval with the cache, a rate limiter and reranking, and a second run is answered from the cache", async () => {
    const environment = { OPENAI_BASE_URL: server.url, RLLM_HOME: path.join(folder, "home"), RUN_DIRECTORY: path.join(folder, "first") };
    await runScript("first-run.ts", environment);
    const firstRequests = server.requests.length;
    const summary = JSON.parse(readFileSync(path.join(folder, "first", "summary.json"), "utf8"));
    expect(summary.metrics.accuracy.mean).toBe(0.5);
    expect(summary.rerank.knockout).toMatchObject({ "rerank@1": 0.5 });
    expect(existsSync(path.join(folder, "first", "tournaments.jsonl"))).toBe(true);
    expect(server.requests.some((request) => /rating/i.test(lastUserText(request.body)))).toBe(true);

    await runScript("second-run.ts", { ...environment, RUN_DIRECTORY: path.join(folder, "second") });
    expect(server.requests.length).toBe(firstRequests);
    expect(JSON.parse(readFileSync(path.join(folder, "second", "summary.json"), "utf8")).rerank.knockout).toEqual(summary.rerank.knockout);
  });

  it("plans and runs an eval as rllm eval does, with a Benchmark and Cookbook of the user's own, and runs an eval set", async () => {
    const environment = { OPENAI_BASE_URL: server.url, RLLM_HOME: path.join(folder, "home-planned"), RUN_DIRECTORY: path.join(folder, "planned"), SET_DIRECTORY: path.join(folder, "set") };
    await runScript("planned-run.ts", environment);
    const summary = JSON.parse(readFileSync(path.join(folder, "planned", "summary.json"), "utf8"));
    expect(summary.metrics.accuracy.mean).toBe(0.5);
    expect(summary.rerank.knockout).toMatchObject({ "rerank@1": 0.5 });
    expect(JSON.parse(readFileSync(path.join(folder, "planned", "config.json"), "utf8"))).toMatchObject({ benchmark: "greetings", cookbook: "echo-upper", model: "my-model", attempts: 3 });
    // Run again, it finishes the run it finds (already complete) instead of refusing its folder.
    await runScript("planned-run.ts", environment);

    await runScript("eval-set.ts", environment);
    const set = JSON.parse(readFileSync(path.join(folder, "set", "set-summary.json"), "utf8"));
    expect(set.cells.map((cell: { directory: string; status: string }) => `${cell.directory} ${cell.status}`)).toEqual(["mine__arith complete", "mine__qa complete"]);
  });
});
