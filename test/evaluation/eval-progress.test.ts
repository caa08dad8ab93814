// executeEvalPlan's progress: a resumed run's running figures start from the episodes it keeps (not from zero), and
// with reranking each task's tournament is reported as it lands, with its judge calls.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvalProgress } from "../../src/evaluation/eval-progress.js";
import { executeEvalPlan } from "../../src/evaluation/execute-eval-plan.js";
import { planEval } from "../../src/evaluation/plan-eval.js";
import { openRunServices } from "../../src/evaluation/run-services.js";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

const folder = mkdtempSync(path.join(os.tmpdir(), "rllm-eval-progress-"));
const rows = path.join(folder, "rows.jsonl");
const answers: Record<string, string> = { "What is 1+1?": "2", "What is 2+2?": "4", "What is 3+3?": "6", "What is 4+4?": "8" };
writeFileSync(rows, Object.entries(answers).map(([question, answer], index) => JSON.stringify({ id: `t${index + 1}`, question, ground_truth: answer })).join("\n") + "\n");

// The endpoint's behaviour per question; the default is the right answer.
let reply: (question: string, call: number) => { text?: string; status?: number } = () => ({});
let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer((body, call) => {
    const text = lastUserText(body);
    if (/rating/i.test(text)) return { text: "<rating_A>5</rating_A><rating_B>5</rating_B>" };
    const question = Object.keys(answers).find((candidate) => text.includes(candidate)) ?? "";
    return { text: `\\boxed{${answers[question]}}`, ...reply(question, call) };
  });
});
afterAll(async () => {
  await server.close();
});

/** Plans and runs the eval, keeping a copy of every progress report. */
async function run(options: Record<string, unknown>): Promise<EvalProgress[]> {
  const plan = await planEval({ benchmark: "math", data: rows, baseUrl: server.url, model: "m", maxRetries: 0, concurrency: 1, ...options });
  const services = await openRunServices(plan.options);
  const reports: EvalProgress[] = [];
  try {
    await executeEvalPlan(plan, services, { onProgress: (progress) => reports.push(structuredClone(progress)) });
  } finally {
    services.close();
  }
  return reports;
}

describe("eval progress", () => {
  it("starts a resumed run's counts and running accuracy from the episodes it keeps", async () => {
    const out = path.join(folder, "resumed");
    // First invocation: 3+3 and 4+4 fail at the endpoint (infra errors, run again by the resume), 2+2 is answered wrong.
    reply = (question) => (question === "What is 3+3?" || question === "What is 4+4?" ? { status: 500 } : question === "What is 2+2?" ? { text: "\\boxed{5}" } : {});
    const first = await run({ out });
    expect(first.at(-1)).toMatchObject({ done: 4, scored: 2, correct: 1, infraErrors: 2 });

    reply = () => ({});
    const resumed = await run({ out, resume: true });
    // Before any episode runs: the two kept episodes, one right.
    expect(resumed[0]).toMatchObject({ done: 2, skipped: 2, total: 4, scored: 2, correct: 1, infraErrors: 0 });
    expect(resumed.at(-1)).toMatchObject({ done: 4, skipped: 2, scored: 4, correct: 3 });
  });

  it("reports each task's tournament with its judge calls, kept ones included after a resume", async () => {
    const out = path.join(folder, "reranked");
    // Two attempts per task, one right and one wrong, so every tournament has two answers to judge.
    reply = (_question, call) => (call % 2 === 1 ? { text: "\\boxed{0}" } : {});
    const reports = await run({ out, attempts: 2, rerank: { methods: ["knockout"], budget: 1 }, limit: 2 });
    const reranked = reports.filter((report) => report.rerank !== undefined).map((report) => report.rerank![0]!);
    expect(reranked.map((rerank) => rerank.reranked)).toEqual(expect.arrayContaining([1, 2]));
    const last = reranked.at(-1)!;
    expect(last).toMatchObject({ method: "knockout", reranked: 2, tasks: 2 });
    expect(last.judgeCalls).toBeGreaterThan(0);

    const resumed = await run({ out, attempts: 2, rerank: { methods: ["knockout"], budget: 1 }, limit: 2, resume: true });
    expect(resumed[0]!.rerank).toEqual([last]);
  });
});
