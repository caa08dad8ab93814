import { mkdtempSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Cookbook } from "../../src/core/cookbook.js";
import { EndpointConfigurationError } from "../../src/core/errors/endpoint-configuration-error.js";
import { InfraError } from "../../src/core/errors/infra-error.js";
import { InputError } from "../../src/core/errors/input-error.js";
import type { ChatRequest } from "../../src/core/llm-client.js";
import { scored } from "../../src/core/score.js";
import type { Task } from "../../src/core/task.js";
import { checkRunDirectory, openRunDirectory, type RunPaths } from "../../src/runs/run-directory.js";
import { runEval, type EvalRunOptions } from "../../src/engine/run-eval.js";
import { singleTurnFlow } from "../../src/engine/single-turn-flow.js";
import { createOpenAiClient } from "../../src/llm/openai-client.js";
import { createRecordingLlmClient } from "../../src/testing/recording-llm-client.js";
import { lastUserText, startScriptedServer, stringHash, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { openRunResources } from "../../src/sandbox/run-resources.js";

// Task i asks for i + i; the model "knows" the even ones, so accuracy is exactly one half on every run.
const tasks: Task[] = Array.from({ length: 6 }, (_, index) => ({ id: `t${index}`, instruction: `What is ${index} + ${index}?`, metadata: { ground_truth: String(2 * index) } }));
const answerTo = (question: string) => {
  const operand = Number(/What is (\d+)/.exec(question)?.[1]);
  return operand % 2 === 0 ? String(2 * operand) : "I do not know";
};
const questionOf = (request: ChatRequest) => String(request.messages.at(-1)?.content);

const cookbook: Cookbook = {
  name: "sum",
  description: "answers i + i",
  flow: singleTurnFlow((task) => [{ role: "user", content: task.instruction }]),
  evaluate: (task, episode) => {
    const isCorrect = episode.trajectories[0]?.output === task.metadata.ground_truth;
    return scored(isCorrect ? 1 : 0, isCorrect);
  },
};

const config = { benchmark: "sum", attempts: 2 };
const freshRun = (): RunPaths => openRunDirectory(path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-run-eval-")), "run"), config, false);
const recordedIds = (paths: RunPaths) => readFileSync(paths.episodes, "utf8").trim().split("\n").filter(Boolean).map((line) => JSON.parse(line).id as string);

function options(paths: RunPaths, overrides: Partial<EvalRunOptions>): EvalRunOptions {
  return {
    tasks,
    cookbook,
    client: createRecordingLlmClient({ reply: (request) => answerTo(questionOf(request)) }),
    sampling: {},
    attempts: 2,
    concurrency: 1,
    timeoutMs: 60_000,
    paths,
    resources: openRunResources(),
    signal: new AbortController().signal,
    ...overrides,
  };
}

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("runEval --resume", () => {
  it("runs only the pairs a cancelled run left missing, and records each pair once", async () => {
    const paths = freshRun();
    const controller = new AbortController();
    const first = await runEval(
      options(paths, {
        signal: controller.signal,
        // Ctrl-C after the fifth episode: concurrency 1 makes the cut deterministic.
        onEpisodeEnd: ({ done }) => {
          if (done === 5) controller.abort(new Error("interrupted"));
        },
      }),
    );
    expect(first).toMatchObject({ status: "cancelled", ran: 5 });
    expect(recordedIds(paths)).toHaveLength(5);

    const client = createRecordingLlmClient({ reply: (request) => answerTo(questionOf(request)) });
    const resumed = await runEval(options(paths, { client }));
    expect(resumed).toMatchObject({ status: "complete", ran: 7 });
    expect(client.calls.map(questionOf)).toEqual(tasks.flatMap((task) => [task.instruction, task.instruction]).slice(5));
    const ids = recordedIds(paths);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect(resumed.summary.counts.episodes).toBe(12);
    expect(resumed.summary.metrics.accuracy.mean).toBe(0.5);
  });

  it("runs an infra failure again on resume, and nothing that was recorded cleanly", async () => {
    const paths = freshRun();
    const flaky = createRecordingLlmClient({
      reply: (request, callIndex) => {
        if (callIndex === 2) throw new InfraError("connection failed: reset");
        return answerTo(questionOf(request));
      },
    });
    const first = await runEval(options(paths, { client: flaky }));
    expect(first.summary.errors.infra).toBe(1);

    const client = createRecordingLlmClient({ reply: (request) => answerTo(questionOf(request)) });
    const resumed = await runEval(options(paths, { client }));
    expect(client.calls.map(questionOf)).toEqual([tasks[1]!.instruction]);
    expect(resumed).toMatchObject({ status: "complete", ran: 1 });
    expect(resumed.summary.errors.infra).toBe(0);
    expect(resumed.episodes).toHaveLength(12);
  });
});

describe("runEval through a 429 storm", () => {
  it("retries every rate-limited call within the retry policy and completes with no episode lost", async () => {
    // Each question is refused twice before it is answered: deterministic whatever order the requests arrive in.
    const refusals = new Map<string, number>();
    server = await startScriptedServer((body) => {
      const key = `${lastUserText(body)}#${body.seed}`;
      const refused = refusals.get(key) ?? 0;
      if (refused < 2) {
        refusals.set(key, refused + 1);
        const headers: Record<string, string> = stringHash(key) % 2 === 0 ? { "retry-after": "2" } : {};
        return { status: 429, headers };
      }
      return { text: answerTo(lastUserText(body)) };
    });
    const sleeps: number[] = [];
    const policy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 60_000 };
    const client = createOpenAiClient({
      baseUrl: server.url,
      model: "scripted",
      retryPolicy: policy,
      random: () => 0.5,
      // The backoff's wait, recorded instead of slept: the test takes no wall time.
      sleep: async (milliseconds) => {
        sleeps.push(milliseconds);
      },
    });
    const result = await runEval(options(freshRun(), { client, seed: 7, concurrency: 4 }));
    expect(result).toMatchObject({ status: "complete", ran: 12 });
    expect(result.summary.errors).toEqual({ infra: 0, model: 0, infraRate: 0 });
    expect(result.summary.metrics.accuracy.mean).toBe(0.5);
    expect(server.requests).toHaveLength(36);
    expect(sleeps).toHaveLength(24);
    // Retry-After: 2 s (plus up to 10% of the base as jitter); otherwise full jitter on 500 ms · 2^retry.
    expect(sleeps.every((delay) => [375, 750, 2025].includes(delay))).toBe(true);
  });

  it("records an episode as an infra error, not a wrong answer, when the storm outlasts the retry policy", async () => {
    server = await startScriptedServer(() => ({ status: 429 }));
    const client = createOpenAiClient({ baseUrl: server.url, model: "scripted", retryPolicy: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 1 }, sleep: async () => undefined });
    const result = await runEval(options(freshRun(), { client, tasks: tasks.slice(0, 1), attempts: 1 }));
    expect(server.requests).toHaveLength(2);
    expect(result.summary.errors.infra).toBe(1);
    expect(result.episodes[0]).toMatchObject({ errorClass: "infra_error", score: { status: "unscored" } });
    expect(result.episodes[0]!.error).toContain("gave up after 2 attempts");
  });
});

describe("runEval against an endpoint that refuses the key", () => {
  it("stops at the first 401 with the API-key hint, starting no further episode", async () => {
    server = await startScriptedServer(() => ({ status: 401, errorMessage: "Incorrect API key provided" }));
    const client = createOpenAiClient({ baseUrl: server.url, model: "scripted", sleep: async () => undefined });
    const paths = freshRun();
    const run = runEval(options(paths, { client, concurrency: 2 }));
    await expect(run).rejects.toBeInstanceOf(EndpointConfigurationError);
    await expect(run).rejects.toThrow("check the API key (--api-key-env)");
    // Only the episodes already in flight when the 401 came back reached the server, and none was recorded.
    expect(server.requests.length).toBeLessThanOrEqual(2);
    expect(recordedIds(paths)).toEqual([]);
  });

  it("lets the episodes in flight land and starts no new one once a call is refused", async () => {
    const client = createRecordingLlmClient({
      reply: (request, callIndex) => {
        if (callIndex === 3) throw new EndpointConfigurationError("HTTP 401: denied (check the API key (--api-key-env))", 401);
        return answerTo(questionOf(request));
      },
    });
    const paths = freshRun();
    await expect(runEval(options(paths, { client }))).rejects.toThrow(/HTTP 401: denied/);
    expect(client.calls).toHaveLength(4);
    expect(recordedIds(paths)).toEqual(["t0:0", "t0:1", "t1:0"]);
  });
});

describe("runEval --resume with a different config", () => {
  it("is refused before anything runs, showing each setting that differs as saved → now", async () => {
    const paths = freshRun();
    await runEval(options(paths, { tasks: tasks.slice(0, 2) }));
    const before = statSync(paths.episodes).size;
    const changed = { ...config, attempts: 3, sampling: { temperature: 0.7 } };
    let refusal: unknown;
    try {
      checkRunDirectory(paths.directory, changed, true);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(InputError);
    // Named as a library caller sets it; the CLI prints the flag (--resume).
    expect((refusal as InputError).flagMessage.split("\n")[0]).toBe(`--resume: the run in ${paths.directory} was made with a different config:`);
    expect((refusal as Error).message.split("\n")).toEqual([
      `resume: the run in ${paths.directory} was made with a different config:`,
      "  attempts: 2 → 3",
      '  sampling: (unset) → {"temperature":0.7}',
    ]);
    expect(statSync(paths.episodes).size).toBe(before);
    // The saved config itself resumes.
    expect(openRunDirectory(paths.directory, config, true)).toEqual(paths);
  });
});
