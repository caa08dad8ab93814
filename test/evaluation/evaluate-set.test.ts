// evaluateSet: the cells of models × benchmarks built from the typed config, run at once into one set folder, and resumed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors/input-error.js";
import { evaluateSet } from "../../src/evaluation/evaluate-set.js";
import type { EvalOutcome } from "../../src/evaluation/execute-eval-plan.js";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

// One wrong answer to everything: the test is about the cells, not the scores.
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer(() => ({ text: "\\boxed{nothing}" }));
});
afterAll(async () => {
  await server.close();
});

const temporary = () => mkdtempSync(path.join(os.tmpdir(), "rllm-evaluate-set-"));

describe("evaluateSet", () => {
  it("runs every cell into its own run folder, writes the comparison, and a resume reruns nothing", async () => {
    const out = path.join(temporary(), "set");
    const config = {
      concurrency: 2,
      models: [{ name: "scripted", baseUrl: server.url, model: "scripted", sampling: { temperature: 0 } }],
      benchmarks: [
        { benchmark: "arith", limit: 2 },
        { benchmark: "qa", limit: 2, attempts: 2 },
      ],
    };
    const started: string[] = [];
    const ended = new Map<string, EvalOutcome>();
    const outcome = await evaluateSet(config, { out }, { onStart: (cells) => started.push(...cells), onCellEnd: (cell, result) => ended.set(cell, result) });
    expect(started).toEqual(["scripted__arith", "scripted__qa"]);
    expect([...ended.keys()].sort()).toEqual(["scripted__arith", "scripted__qa"]);
    expect(ended.get("scripted__qa")!.progress).toMatchObject({ done: 4, total: 4 });
    expect(outcome.isInterrupted).toBe(false);
    expect(outcome.rows.map((row) => [row.directory, row.status, row.accuracy?.n])).toEqual([
      ["scripted__arith", "complete", 2],
      ["scripted__qa", "complete", 4],
    ]);
    expect(JSON.parse(readFileSync(path.join(out, "set-summary.json"), "utf8")).cells).toEqual(outcome.rows);
    expect(JSON.parse(readFileSync(path.join(out, "scripted__qa", "config.json"), "utf8"))).toMatchObject({ benchmark: "qa", model: "scripted", attempts: 2, limit: 2 });

    const chatCalls = () => server.requests.filter((request) => request.path.endsWith("/chat/completions")).length;
    const callsBefore = chatCalls();
    const resumed = await evaluateSet(config, { out, resume: true });
    expect(resumed.rows).toEqual(outcome.rows);
    // Every episode was recorded, so the resumed cells make no model call.
    expect(chatCalls()).toBe(callsBefore);
  });

  it.each([
    [{ models: [{ baseUrl: "not a url", model: "m" }], benchmarks: [{ benchmark: "arith" }] }, "set.yaml: models[0].baseUrl"],
    [{ models: [{ baseUrl: "http://127.0.0.1:9/v1", model: "m" }], benchmarks: [{ benchmark: "arith", rerank: ["nope"] }] }, "set.yaml: benchmarks[0].rerank[0]"],
    [{ models: [{ baseUrl: "http://127.0.0.1:9/v1", model: "m" }], benchmarks: [{ benchmark: "arith" }], matrix: [{ model: "m", benchmark: "qa" }] }, 'set.yaml: matrix[0].benchmark: no benchmark labelled "qa"'],
  ])("refuses a bad config before any folder is written, naming the field (%#)", async (config, message) => {
    const out = path.join(temporary(), "set");
    const error = await evaluateSet(config, { out, file: "set.yaml" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(message);
    expect(existsSync(out)).toBe(false);
  });

  it("a resume whose saved set.json is torn names the file instead of throwing a bare SyntaxError", async () => {
    const out = path.join(temporary(), "set");
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, "set.json"), '{"models": [');
    const config = { models: [{ baseUrl: server.url, model: "scripted" }], benchmarks: [{ benchmark: "arith", limit: 1 }] };
    const error = await evaluateSet(config, { out, resume: true }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toContain(`${path.join(out, "set.json")}: not valid JSON`);
  });
});
