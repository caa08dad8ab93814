/** A scripted OpenAI-compatible server that answers the paper suites' bundled tasks with their reference replies, and judges pairs. */
import { readFileSync } from "node:fs";
import { createRng } from "../../../src/core/random.js";
import { lastUserText, startScriptedServer, stringHash, type ScriptedServer } from "../../helpers/scripted-openai-server.js";

type SampleRow = { id: string; question: string; ground_truth?: string; reference_solution?: string };

/** The rows of a suite's bundled sample. */
export const sampleOf = (name: string): SampleRow[] =>
  readFileSync(new URL(`../../../benchmarks/${name}/sample.jsonl`, import.meta.url), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as SampleRow);

/** The suites with a bundled sample (gpqa-diamond ships none). */
export const sampledSuites = ["aime24", "aime25", "hmmt25", "math500", "gsm8k", "humaneval", "humanevalplus", "mbppplus", "livecodebench", "mmlu-pro"];
const rows = sampledSuites.flatMap((name) => sampleOf(name).map((row) => ({ ...row, suite: name })));
const rowIn = (prompt: string) => rows.find((candidate) => prompt.includes(candidate.question.trim().slice(0, 200)));

/** The reference reply to a prompt: the boxed answer, GSM8K's final-answer line, a fenced solution or the letter. */
function referenceReply(prompt: string): string {
  const row = rowIn(prompt);
  if (!row) return "I do not know.";
  if (row.reference_solution) return `Here is the program:\n\`\`\`python\n${row.reference_solution}\n\`\`\``;
  if (row.suite === "gsm8k") return `Step by step.\nThe final answer is ${row.ground_truth}`;
  if (row.suite === "mmlu-pro") return `Let's think step by step. The answer is (${row.ground_truth}).`;
  return `Working.\n\\boxed{${row.ground_truth}}`;
}

/**
 * Starts the server. A judge prompt (adaptive-duel, V1) prefers the solution whose boxed answer is the reference. Sampled
 * at temperature 0.7, an aime25 attempt is right a third of the time by its seed, so reranking has something to choose;
 * every reply is a function of the request alone, whatever order the calls arrive in.
 */
export function startReferenceServer(): Promise<ScriptedServer> {
  return startScriptedServer((body) => {
    const prompt = lastUserText(body);
    const pair = /## Solution A\n([\s\S]*?)\n\n## Solution B\n([\s\S]*?)\n\nReason step by step/.exec(prompt);
    if (pair) {
      const row = rowIn(prompt);
      const correctA = row?.ground_truth !== undefined && pair[1]!.includes(`{${row.ground_truth}}`);
      const correctB = row?.ground_truth !== undefined && pair[2]!.includes(`{${row.ground_truth}}`);
      if (correctA === correctB) return { text: "<rating_A>5</rating_A><rating_B>5</rating_B>" };
      return { text: correctA ? "<rating_A>9</rating_A><rating_B>2</rating_B>" : "<rating_A>2</rating_A><rating_B>9</rating_B>" };
    }
    const row = rowIn(prompt);
    if (row?.suite === "aime25" && body.temperature === 0.7) {
      const right = createRng(body.seed ?? stringHash(prompt))() < 1 / 3;
      return { text: `Working.\n\\boxed{${right ? row.ground_truth : "1"}}` };
    }
    return { text: referenceReply(prompt) };
  });
}
