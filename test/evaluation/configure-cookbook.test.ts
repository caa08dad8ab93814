// `rllm eval --set key=value`: each cookbook's own options, checked against its schema and applied before any endpoint starts.
import { afterAll, describe, expect, it } from "vitest";
import { arithCookbook } from "../../cookbooks/arith/index.js";
import { finqaCookbook } from "../../cookbooks/finqa/index.js";
import { configureCookbook, parseCookbookOptions } from "../../src/evaluation/configure-cookbook.js";
import { parseSetFlags } from "../../src/core/parse-set-flags.js";
import type { EndpointPlan } from "../../src/evaluation/resolve-endpoint.js";
import { EpisodeSchema } from "../../src/core/episode.js";
import type { ChatResponse, LlmClient } from "../../src/core/llm-client.js";
import type { Task } from "../../src/core/task.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const remote: EndpointPlan = { isEmbedded: false, baseUrl: "http://127.0.0.1:9/v1", model: "agent" };
const embedded: EndpointPlan = { isEmbedded: true, model: "tiny" };

// A wrong answer that looked at every table the question needs: its reward is β · 1.
const task: Task = {
  id: "t1",
  instruction: "Company: ACME\nQuestion: how did revenue change?",
  metadata: { ground_truth: 0.1446, question: "how did revenue change?", expected_tables: ["revenue"] },
};
const episode = (reply: string) =>
  EpisodeSchema.parse({
    id: "t1:0",
    taskId: "t1",
    attempt: 0,
    trajectories: [{ name: "solver", steps: [{ input: [], output: reply }] }],
    artifacts: { answer: reply, accessedTables: ["revenue"], turns: 3, toolErrors: 0 },
  });

describe("parseCookbookOptions", () => {
  it("refuses any --set key for a cookbook that takes no options, naming it", () => {
    for (const entry of ["beta=0.5", "judgeModel=x", "anything=1"]) {
      const key = entry.split("=")[0];
      expect(() => parseCookbookOptions(arithCookbook, parseSetFlags([entry]))).toThrow(`cookbookOptions ${key}: cookbook "arith" takes no options`);
    }
    expect(parseCookbookOptions(arithCookbook, parseSetFlags([]))).toBeUndefined();
  });

  it("refuses an unknown key, naming the cookbook's known keys", () => {
    expect(() => parseCookbookOptions(finqaCookbook, parseSetFlags(["betta=0.5"]))).toThrow('--set betta: unknown key for cookbook "finqa"; known: beta, judgeModel');
  });

  it("refuses a bad value, naming the key", () => {
    expect(() => parseCookbookOptions(finqaCookbook, parseSetFlags(["beta=high"]))).toThrow("--set beta: Invalid input: expected number, received string");
    expect(() => parseCookbookOptions(finqaCookbook, parseSetFlags(["beta=-1"]))).toThrow(/^--set beta: Too small/);
    expect(() => parseCookbookOptions(finqaCookbook, parseSetFlags(["beta"]))).toThrow("--set beta: expected key=value");
  });

  it("accepts finqa's options, typed", () => {
    expect(parseCookbookOptions(finqaCookbook, parseSetFlags(["beta=0.5", "judgeModel=gpt-4o-mini"]))).toEqual({ beta: 0.5, judgeModel: "gpt-4o-mini" });
  });
});

describe("configureCookbook", () => {
  const rewardWith = async (entries: string[]) => {
    const cookbook = configureCookbook(finqaCookbook, parseCookbookOptions(finqaCookbook, parseSetFlags(entries)), remote, { provider: "local" });
    return (await cookbook.evaluate(task, episode("FINAL ANSWER: 3%"), testRun.evaluatorContext())).value;
  };

  it("applies finqa's β from --set to the table-access bonus", async () => {
    expect(await rewardWith(["beta=0.5"])).toBeCloseTo(0.5);
    expect(await rewardWith(["beta=0"])).toBe(0);
    expect(await rewardWith([])).toBeCloseTo(0.1);
  });

  it("gives finqa's judge model a client from the run's context", async () => {
    const asked: string[] = [];
    const judge: LlmClient = {
      model: "judge",
      async chat(): Promise<ChatResponse> {
        return { model: "judge", usage: { promptTokens: 1, completionTokens: 1 }, choices: [{ text: JSON.stringify({ correct: true, reason: "same change" }), toolCalls: [], finishReason: "stop" }] };
      },
    };
    const cookbook = finqaCookbook.configure!({ judgeModel: "gpt-4o-mini" }, {
      sandbox: { provider: "local" },
      createClient(model) {
        asked.push(model);
        return judge;
      },
    });
    expect(asked).toEqual(["gpt-4o-mini"]);
    const freeText = { ...task, metadata: { ...task.metadata, ground_truth: "it rose by a tenth" } };
    expect((await cookbook.evaluate(freeText, episode("FINAL ANSWER: up 10%"), testRun.evaluatorContext())).status).toBe("scored");
    expect((await finqaCookbook.evaluate(freeText, episode("FINAL ANSWER: up 10%"), testRun.evaluatorContext())).status).toBe("unscored");
  });

  it("refuses a judge model with the embedded model, before any endpoint starts", () => {
    const options = parseCookbookOptions(finqaCookbook, parseSetFlags(["judgeModel=gpt-4o-mini"]));
    expect(() => configureCookbook(finqaCookbook, options, embedded, { provider: "local" })).toThrow(/model "gpt-4o-mini", which needs baseUrl/);
  });

  it("leaves a cookbook without options as it is", () => {
    expect(configureCookbook(arithCookbook, undefined, remote, { provider: "local" })).toBe(arithCookbook);
  });
});
