// `rllm eval deepcoder` end to end against a scripted OpenAI server: the bundled problems, the cookbook and the sandbox.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { runCli } from "../../helpers/run-cli.js";
import { lastUserText, startScriptedServer } from "../../helpers/scripted-openai-server.js";

const sample = readFileSync(new URL("../../../benchmarks/deepcoder/sample.jsonl", import.meta.url), "utf8")
  .trim()
  .split("\n")
  .map((line) => JSON.parse(line) as { question: string; reference_solution: string });
const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-deepcoder-eval-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

it("scores the reference solutions 100% and a broken reply 0%", async () => {
  // Attempt 0 answers with the problem's reference solution, attempt 1 with a program that crashes.
  const server = await startScriptedServer((body) => {
    const prompt = lastUserText(body);
    const problem = sample.find((row) => prompt.includes(row.question));
    const isFirstAttempt = !seen.has(prompt);
    seen.add(prompt);
    return { text: isFirstAttempt && problem ? `Here it is:\n\`\`\`python\n${problem.reference_solution}\n\`\`\`` : "```python\nraise SystemExit(1)\n```" };
  });
  const seen = new Set<string>();
  try {
    const output = path.join(directory, "run");
    const result = await runCli(["eval", "deepcoder", "--base-url", server.url, "--model", "scripted", "--limit", "2", "--attempts", "2", "--concurrency", "1", "--out", output]);
    expect(result.code, result.stderr).toBe(0);
    const episodes = readFileSync(path.join(output, "episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(episodes).toHaveLength(4);
    expect(episodes.filter((episode) => episode.attempt === 0).map((episode) => episode.score.value)).toEqual([1, 1]);
    expect(episodes.filter((episode) => episode.attempt === 1).map((episode) => episode.score.value)).toEqual([0, 0]);
  } finally {
    await server.close();
  }
});
