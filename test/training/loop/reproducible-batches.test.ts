// The same seed trains on the same batches whatever order the sampler's replies arrive in. Each run's fake sampler
// delays every reply by a draw from its own generator, so the episodes of a step (solvers, then judges) finish in a
// different order in each run; like vLLM or the tiny model, it samples from its own random state when a call carries
// no seed. Before judge calls were seeded, the judge rows differed between runs and this failed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createRng, type Rng } from "../../../src/core/random.js";
import { openRunResources } from "../../../src/sandbox/run-resources.js";
import type { TrainBatch } from "../../../src/training/backend.js";
import { runTraining } from "../../../src/training/loop/run-training.js";
import type { TrainRecord } from "../../../src/training/loop/train-records.js";
import { TrainConfigSchema } from "../../../src/training/train-config.js";
import { parityCookbook, parityTasks, recordingBackend } from "./parity-training-fixtures.js";
import { stringHash } from "../../helpers/scripted-openai-server.js";

/** A sampler whose reply is a function of the request's seed and messages (random without a seed), sent after a random delay. */
async function startShufflingSampler(delays: Rng) {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { seed?: number; messages: { content: string }[] };
      const draw = body.seed === undefined ? Math.floor(Math.random() * 1000) : stringHash(`${body.seed}|${JSON.stringify(body.messages)}`) % 1000;
      const text = `reply ${draw}`;
      setTimeout(() => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            id: "chatcmpl-1",
            object: "chat.completion",
            model: "fake",
            prompt_token_ids: [...JSON.stringify(body.messages)].slice(0, 40).map((character) => character.charCodeAt(0)),
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: text },
                finish_reason: "stop",
                token_ids: [500 + (draw % 100), 700 + Math.floor(draw / 100)],
                logprobs: { content: [{ logprob: -(draw % 7) / 10 }, { logprob: -(draw % 5) / 10 }] },
              },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
          }),
        );
      }, Math.floor(delays() * 15));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const cookbook = parityCookbook;
const tasks = parityTasks;

async function train(delaySeed: number): Promise<{ batches: TrainBatch[]; records: TrainRecord[] }> {
  const sampler = await startShufflingSampler(createRng(delaySeed));
  try {
    const config = TrainConfigSchema.parse({
      steps: 2,
      tasksPerStep: 4,
      groupSize: 4,
      joint: { enabled: true, pairsPerTask: 2, samplesPerPair: 2 },
      validation: { every: 2, tasks: 3, attempts: 2, judgePairs: 1 },
      concurrency: 8,
      seed: 3,
    });
    const { backend, batches } = recordingBackend(sampler.baseUrl);
    const directory = mkdtempSync(path.join(tmpdir(), "rllm-train-replay-"));
    const records = await runTraining({ config, cookbook, trainTasks: tasks, testTasks: tasks, backend, baseModel: "fake", directory, resume: false, signal: new AbortController().signal, resources: openRunResources() });
    return { batches, records };
  } finally {
    await sampler.close();
  }
}

// Timings, and the order groups finished in (recorded for a replay), are the only fields that may differ between runs.
const withoutTimes = (records: readonly TrainRecord[]) =>
  records.map((record) =>
    record.kind === "train"
      ? { ...record, rolloutSeconds: 0, trainSeconds: 0, stepSeconds: 0, elapsedSeconds: 0, groups: record.groups.map((group) => ({ ...group, finishedOrder: 0 })) }
      : { ...record, seconds: 0, elapsedSeconds: 0 },
  );

describe("a training run's batches", () => {
  it("are the same for the same seed however the episodes' completion order is shuffled", async () => {
    const first = await train(1);
    const second = await train(2);
    expect(first.batches).toHaveLength(2);
    // Judge rows are in the batch: two calls per pair, each with its own derived seed.
    expect(first.batches[0]!.sequences.filter((sequence) => sequence.role === "judge").length).toBeGreaterThan(0);
    expect(second.batches.map((batch) => batch.sequences)).toEqual(first.batches.map((batch) => batch.sequences));
    expect(withoutTimes(second.records)).toEqual(withoutTimes(first.records));
  });

  it("gives each judge call of a pair its own draw", async () => {
    const { batches } = await train(1);
    const judgeRows = batches[0]!.sequences.filter((sequence) => sequence.role === "judge").map((sequence) => JSON.stringify(sequence.tokens));
    expect(new Set(judgeRows).size).toBeGreaterThan(judgeRows.length / 2);
  });
});
