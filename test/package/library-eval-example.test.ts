/**
 * docs/package.md's library examples ("Running an eval from code", "Planning and running an eval as `rllm eval` does"),
 * run as written: the user's cookbook and the eval scripts are taken from the page's code blocks, with `rllm-ts` pointed at the sources, so the page cannot drift from the API.
 */
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

beforeAll(async () => {
  // The model shouts correctly for "hello" only; the judge rates both candidates alike.
  server = await startScriptedServer((body) => {
    const text = lastUserText(body);
    if (/rating/i.test(text)) return { text: "<rating_A>5</rating_A><rating_B>5</rating_B>" };
    return { text: text.includes("hello") ? "hello" : "farewell" };
  });
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
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { OPENAI_BASE_URL: server.url, RLLM_HOME: path.join(folder, "home"), RUN_DIRECTORY: path.join(folder, "first") });
      await import(path.join(folder, "first-run.ts"));
      const firstRequests = server.requests.length;
      const summary = JSON.parse(readFileSync(path.join(folder, "first", "summary.json"), "utf8"));
      expect(summary.metrics.accuracy.mean).toBe(0.5);
      expect(summary.rerank.knockout).toMatchObject({ "rerank@1": 0.5 });
      expect(existsSync(path.join(folder, "first", "tournaments.jsonl"))).toBe(true);
      expect(server.requests.some((request) => /rating/i.test(lastUserText(request.body)))).toBe(true);

      process.env.RUN_DIRECTORY = path.join(folder, "second");
      await import(path.join(folder, "second-run.ts"));
      expect(server.requests.length).toBe(firstRequests);
      expect(JSON.parse(readFileSync(path.join(folder, "second", "summary.json"), "utf8")).rerank.knockout).toEqual(summary.rerank.knockout);
    } finally {
      process.env = saved;
    }
  });

  it("plans and runs an eval as rllm eval does, with a Benchmark and Cookbook of the user's own, and runs an eval set", async () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { OPENAI_BASE_URL: server.url, RLLM_HOME: path.join(folder, "home-planned"), RUN_DIRECTORY: path.join(folder, "planned"), SET_DIRECTORY: path.join(folder, "set") });
      await import(path.join(folder, "planned-run.ts"));
      const summary = JSON.parse(readFileSync(path.join(folder, "planned", "summary.json"), "utf8"));
      expect(summary.metrics.accuracy.mean).toBe(0.5);
      expect(summary.rerank.knockout).toMatchObject({ "rerank@1": 0.5 });
      expect(JSON.parse(readFileSync(path.join(folder, "planned", "config.json"), "utf8"))).toMatchObject({ benchmark: "greetings", cookbook: "echo-upper", model: "my-model", attempts: 3 });

      await import(path.join(folder, "eval-set.ts"));
      const set = JSON.parse(readFileSync(path.join(folder, "set", "set-summary.json"), "utf8"));
      expect(set.cells.map((cell: { directory: string; status: string }) => `${cell.directory} ${cell.status}`)).toEqual(["mine__arith complete", "mine__qa complete"]);
    } finally {
      process.env = saved;
    }
  });
});
