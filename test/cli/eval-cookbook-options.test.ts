// `rllm eval finqa --set beta=...` end to end: the option reaches the evaluator, and config.json records it for --resume.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { runCli } from "../helpers/run-cli.js";

let server: ScriptedServer;

// A model that opens every table of the company, then answers wrongly: its reward is β · tableAccess alone.
beforeAll(async () => {
  server = await startScriptedServer((body) => {
    const messages: { role: string; content: string }[] = body.messages;
    const company = /Company: (\S+)/.exec(lastUserText(body))?.[1] ?? "";
    const toolResults = messages.filter((message) => message.role === "tool");
    if (toolResults.length === 0) return { toolCalls: [{ id: "names", name: "get_table_names", arguments: JSON.stringify({ company_name: company }) }] };
    if (toolResults.length === 1) {
      const names: string[] = JSON.parse(toolResults[0]!.content);
      return { toolCalls: names.map((name, index) => ({ id: `info${index}`, name: "get_table_info", arguments: JSON.stringify({ company_name: company, table_name: name }) })) };
    }
    return { text: "FINAL ANSWER: -123456789" };
  });
});
afterAll(() => server.close());

const rewardOf = async (extra: string[]) => {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-eval-set-")), "run");
  const result = await runCli(["eval", "finqa", "--base-url", server.url, "--model", "scripted", "--limit", "1", "--concurrency", "1", "--out", out, ...extra]);
  expect(result.code, result.stderr).toBe(0);
  const [episode] = readFileSync(path.join(out, "episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
  return { score: episode.score, config: JSON.parse(readFileSync(path.join(out, "config.json"), "utf8")) };
};

describe("rllm eval --set", () => {
  it("applies finqa's β to the table-access bonus and records the option in config.json", { timeout: 60_000 }, async () => {
    const { score, config } = await rewardOf(["--set", "beta=0.5"]);
    expect(score.status).toBe("scored");
    expect(score.isCorrect).toBe(false);
    expect(score.signals.tableAccess).toBeGreaterThan(0);
    expect(score.value).toBeCloseTo(0.5 * score.signals.tableAccess);
    expect(config.cookbookOptions).toEqual({ beta: 0.5 });
    const byDefault = await rewardOf([]);
    expect(byDefault.score.value).toBeCloseTo(0.1 * byDefault.score.signals.tableAccess);
    expect(byDefault.config.cookbookOptions).toBeUndefined();
  });
});
