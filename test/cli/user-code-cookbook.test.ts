// A user's own code cookbook, in a folder outside the repository and built only on the public entries, gets what a
// built-in one gets without any change to src/: its programs graded in the run's sandbox through the pool it declares,
// and --rerank's code rubric because it says its judge kind is "code" (src/ keeps no list of code cookbooks).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-user-code-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const cookbookFile = path.join(directory, "my-code", "index.ts");
const cookbookSource = `
import { episodeAnswer, scored, unscored, type Cookbook } from "rllm-ts/core";
import { singleTurnFlow } from "rllm-ts/flows";
import { codePool, extractLastCodeBlock } from "rllm-ts/verifiers/code";

const cookbook: Cookbook = {
  name: "my-code",
  description: "stdin programs, graded in the run's sandbox",
  judgeKind: "code",
  pools: [codePool],
  flow: singleTurnFlow((task) => [{ role: "user", content: String(task.instruction) }]),
  async evaluate(task, episode, context) {
    const program = extractLastCodeBlock(episodeAnswer(episode));
    if (program === undefined) return unscored("no program");
    const grader = (await context.pool(codePool)).grader();
    const verdict = await grader.grade({ program, tests: [{ kind: "stdin", input: String(task.metadata.input), output: String(task.metadata.ground_truth) }] });
    return scored(verdict.passed ? 1 : 0, verdict.passed, { explanation: verdict.verdict });
  },
};
export default cookbook;
`;

const rowsFile = path.join(directory, "rows.jsonl");
const rows = [
  { id: "double", question: "Print twice the number on stdin.", input: "21\n", ground_truth: "42\n" },
  { id: "square", question: "Print the square of the number on stdin.", input: "7\n", ground_truth: "49\n" },
];

// The first reply to each question is right and the second wrong, whichever attempt asks first; the judge calls a tie.
let server: ScriptedServer;
const asked = new Map<string, number>();
beforeAll(async () => {
  mkdirSync(path.dirname(cookbookFile), { recursive: true });
  writeFileSync(cookbookFile, cookbookSource);
  writeFileSync(rowsFile, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
  server = await startScriptedServer((body) => {
    const prompt = lastUserText(body);
    if (prompt.includes("## Solution A")) return { text: "<rating_A>5</rating_A><rating_B>5</rating_B>" };
    const right = prompt.includes("twice") ? "print(int(input()) * 2)" : "print(int(input()) ** 2)";
    asked.set(prompt, (asked.get(prompt) ?? 0) + 1);
    return { text: `\`\`\`python\n${asked.get(prompt) === 1 ? right : "print(0)"}\n\`\`\`` };
  });
});
afterAll(() => server.close());

describe("a user's own code cookbook", () => {
  it("grades its programs in the sandbox and is reranked with the code rubric, src/ untouched", async () => {
    const out = path.join(directory, "run");
    const result = await runCli(
      ["eval", "qa", "--cookbook", cookbookFile, "--data", rowsFile, "--base-url", server.url, "--model", "m", "-n", "2", "--rerank", "v1", "--budget", "1", "--out", out],
      { RLLM_HOME: path.join(directory, "home") },
    );
    expect(result.code, result.stderr).toBe(0);
    const episodes = readFileSync(path.join(out, "episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    // Every episode was graded by running its program: a verdict of the sandbox, right or wrong, never unscored.
    expect(episodes).toHaveLength(4);
    for (const episode of episodes) expect(episode.score.status).toBe("scored");
    expect(episodes.filter((episode) => episode.score.isCorrect)).toHaveLength(2);
    const judgePrompts = server.requests.map((request) => lastUserText(request.body)).filter((prompt) => prompt.includes("## Solution A"));
    expect(judgePrompts.length).toBeGreaterThan(0);
    for (const prompt of judgePrompts) expect(prompt).toContain("solves the problem correctly on every valid input");
    const config = JSON.parse(readFileSync(path.join(out, "config.json"), "utf8"));
    expect(config.sandbox).toEqual({ provider: "local" });
    expect(config.resources.pools.code).toMatchObject({ sandbox: "local" });
  }, 180_000);
});
