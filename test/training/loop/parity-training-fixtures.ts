/**
 * Fixtures of the training-loop tests: a cookbook whose answers are right when the fake sampler's reply number is even
 * (so groups are mixed and the judge gets pairs), six tasks, and a backend that records the batches it is given and
 * checkpoints its version to a file.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Cookbook } from "../../../src/core/cookbook.js";
import { scored } from "../../../src/core/score.js";
import type { Task } from "../../../src/core/task.js";
import { stepFromChat } from "../../../src/llm/step-from-chat.js";
import type { TrainBatch, TrainingBackend } from "../../../src/training/backend.js";

/** The samplers answer "reply <n>"; an even n is correct. */
export const parityCookbook: Cookbook = {
  name: "parity",
  description: "test cookbook",
  async flow(task, context) {
    const request = { messages: [{ role: "user" as const, content: String(task.instruction) }], ...context.sampling, signal: context.signal };
    const step = stepFromChat(request, await context.client.chat(request));
    return { name: "solver", steps: [step], reward: null, output: step.output, signals: {}, info: {} };
  },
  evaluate(_task, episode) {
    const number = Number(/reply (\d+)/.exec(episode.trajectories[0]!.steps[0]!.output)?.[1]);
    return scored(number % 2 === 0 ? 1 : 0, number % 2 === 0);
  },
};

export const parityTasks: Task[] = Array.from({ length: 6 }, (_, index) => ({ id: `t${index}`, instruction: `What is ${index}+1?`, metadata: {} }));

/** A backend that records batches, serves `baseUrl`, and checkpoints its version to a file. */
export function recordingBackend(baseUrl: string): { backend: TrainingBackend; batches: TrainBatch[] } {
  const batches: TrainBatch[] = [];
  let version = 0;
  const ref = () => ({ backend: "recording", modelId: "fake", version, openaiBaseUrl: baseUrl });
  const backend: TrainingBackend = {
    name: "recording",
    capabilities: () => ({ name: "recording", losses: ["ppo"], lossAggregations: ["token-mean"], merges: ["prefix"], sampling: "openai", fullFineTune: true, lora: false, maxContext: 1000, checkpoints: true, referenceKl: false, entropySelection: false }),
    open: async () => ref(),
    sample: async () => ({ completions: [], policyVersion: version }),
    submit: async (batch) => {
      batches.push(batch);
      return { stepId: `s${batches.length}` };
    },
    status: async () => ({ state: "done", metrics: { loss: 0.5, logprobMismatchMean: 0 } }),
    publish: async () => {
      version += 1;
      return ref();
    },
    checkpoint: async (directory) => {
      mkdirSync(directory, { recursive: true });
      writeFileSync(path.join(directory, "version"), String(version));
      return { path: directory };
    },
    restore: async (directory) => {
      version = Number(readFileSync(path.join(directory, "version"), "utf8"));
      return ref();
    },
    close: async () => {},
  };
  return { backend, batches };
}
