import { afterEach, describe, expect, it } from "vitest";
import { InfraError } from "../../src/core/errors/infra-error.js";
import { createOpenAiClient } from "../../src/llm/openai-client.js";
import { pairJudgeMessages } from "../../src/tournament/judge-prompts.js";
import { createLlmJudge } from "../../src/tournament/llm-judge.js";
import { startScriptedServer, type Script, type ScriptedServer } from "../helpers/scripted-openai-server.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function judgeOn(script: Script, kind: "math" | "code" = "math", seed?: number) {
  server = await startScriptedServer(script);
  const client = createOpenAiClient({
    baseUrl: server.url,
    model: "scripted",
    retryPolicy: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    requestLogprobs: false,
    requestTokenIds: false,
  });
  return createLlmJudge({ client, kind, seed });
}

describe("the pairwise prompts", () => {
  it("hold the problem, both solutions in their slots and the rating tags, with the kind's rubric", () => {
    const math = pairJudgeMessages("math", "What is 2+2?", "<think>scratch</think>It is 4.", "It is 5.")[0]!.content as string;
    expect(math).toContain("## Problem\nWhat is 2+2?");
    expect(math).toContain("## Solution A\nIt is 4.");
    expect(math).not.toContain("scratch");
    expect(math).toContain("## Solution B\nIt is 5.");
    expect(math).toContain("<rating_A>n</rating_A>");
    expect(math).toContain("FINAL ANSWER");
    const code = pairJudgeMessages("code", "p", "a", "b")[0]!.content as string;
    expect(code).toContain("robust");
    expect(code).not.toContain("FINAL ANSWER");
  });
});

describe("createLlmJudge", () => {
  it("parses the ratings and returns the call as a Step with its usage", async () => {
    const judge = await judgeOn(() => ({ text: "A is right.\n<rating_A>9</rating_A>\n<rating_B>3</rating_B>" }));
    const verdict = await judge.compare("problem", "first", "second");
    expect(verdict).toMatchObject({ ratingA: 9, ratingB: 3, winner: "A", parseError: false });
    expect(verdict.step!.output).toContain("<rating_A>9</rating_A>");
    expect(verdict.step!.usage.completionTokens).toBeGreaterThan(0);
    expect(server!.requests[0]!.body.messages[0].content).toContain("## Solution B\nsecond");
  });

  it("seeds each call from the base seed, the prompt and how often it was asked, whatever order replies come back in", async () => {
    const reply = { text: "<rating_A>9</rating_A><rating_B>3</rating_B>" };
    const seedsOf = async (seed: number | undefined, slowFirst: boolean) => {
      // The first reply is delayed in one run and not in the other: the seeds must not depend on arrival order.
      const judge = await judgeOn((_, callIndex) => ({ ...reply, delayMs: slowFirst && callIndex === 0 ? 30 : 0 }), "math", seed);
      await Promise.all([judge.compare("p", "a", "b"), judge.compare("p", "a", "b"), judge.compare("p", "b", "a"), judge.score("p", "a")]);
      const seeds = server!.requests.map((request) => [request.body.messages[0].content, request.body.seed]);
      await server!.close();
      server = undefined;
      return seeds.sort((first, second) => String(first).localeCompare(String(second)));
    };
    const first = await seedsOf(5, true);
    expect(await seedsOf(5, false)).toEqual(first);
    const seeds = first.map(([, seed]) => seed);
    expect(seeds.every((seed) => Number.isInteger(seed))).toBe(true);
    // The same prompt asked twice gets two different seeds; another base seed changes them all.
    expect(new Set(seeds).size).toBe(4);
    const other = (await seedsOf(6, false)).map(([, seed]) => seed);
    expect(other.filter((seed) => seeds.includes(seed))).toEqual([]);
    expect((await seedsOf(undefined, false)).map(([, seed]) => seed)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("turns an unreadable reply into a tie with parseError", async () => {
    const judge = await judgeOn(() => ({ text: "Both are fine, I suppose." }));
    expect(await judge.compare("p", "a", "b")).toMatchObject({ ratingA: null, ratingB: null, winner: "tie", parseError: true });
    expect(await judge.score("p", "a")).toMatchObject({ rating: null, parseError: true });
  });

  it("records a refused prompt (HTTP 400) as a tie, but lets an infrastructure failure through", async () => {
    const refusing = await judgeOn(() => ({ status: 400 }));
    const refused = await refusing.compare("p", "a", "b");
    expect(refused).toMatchObject({ winner: "tie", parseError: true });
    expect(refused.step!.info.error).toMatch(/400/);
    await server!.close();
    server = undefined;
    const failing = await judgeOn(() => ({ status: 500 }));
    await expect(failing.compare("p", "a", "b")).rejects.toBeInstanceOf(InfraError);
  });
});
