import { describe, expect, it } from "vitest";
import { StepScheduler, DEFAULT_STEPS_PER_TURN } from "../../../src/models/tiny/step-scheduler.js";
import { loadTinyModel } from "../../../src/models/tiny/tiny-model.js";
import { applyChatTemplate } from "../../../src/models/tiny/chat-template.js";

/** Counts `work()`'s progress at every pass of the event loop until it settles; returns the largest gain in one pass. */
async function largestGainPerPass(progress: () => number, work: Promise<unknown>): Promise<number> {
  let settled = false;
  void work.then(() => (settled = true));
  let largest = 0;
  let last = progress();
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    largest = Math.max(largest, progress() - last);
    last = progress();
  }
  return largest;
}

describe("StepScheduler", () => {
  it("runs at most stepsPerTurn steps of all its tasks between two passes of the event loop", async () => {
    const scheduler = new StepScheduler(4);
    let steps = 0;
    const task = async () => {
      for (let step = 0; step < 20; step++) {
        await scheduler.step();
        steps += 1;
      }
    };
    const largest = await largestGainPerPass(() => steps, Promise.all(Array.from({ length: 10 }, task)));
    expect(steps).toBe(200);
    // The observer and the scheduler each run once per pass; a pass can straddle two turns.
    expect(largest).toBeLessThanOrEqual(2 * 4);
  });

  it("gives waiting tasks their steps in turn, so none starves", async () => {
    const scheduler = new StepScheduler(2);
    const order: number[] = [];
    const task = async (id: number) => {
      for (let step = 0; step < 3; step++) {
        await scheduler.step();
        order.push(id);
      }
    };
    await Promise.all([0, 1, 2, 3].map(task));
    // Tasks 0 and 1 take the first turn's two steps and then queue behind 2 and 3: a round robin from there on.
    expect(order).toEqual([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]);
  });

  it("refuses a turn of zero steps", () => {
    expect(() => new StepScheduler(0)).toThrow(/positive integer/);
  });
});

describe("tiny model generation under load", () => {
  it("lets the event loop run after a bounded number of tokens however many generations are in flight", async () => {
    const model = await loadTinyModel();
    const prompt = applyChatTemplate([{ role: "user", content: "What is 12+7*3?" }]);
    let tokens = 0;
    const count = 32;
    const generations = Array.from({ length: count }, (_, seed) =>
      model.generate(prompt, { n: 1, temperature: 2, topP: 1, maxTokens: 60, stop: [], topLogprobs: 0, seed }, () => (tokens += 1)),
    );
    const largest = await largestGainPerPass(() => tokens, Promise.all(generations));
    expect(tokens).toBeGreaterThan(count * 4);
    // Yielding per generation lets all 32 run 8 tokens each per pass (256); one shared budget bounds the pass. Each
    // sampled token costs a step, except the one closing text report per generation.
    expect(largest).toBeLessThanOrEqual(2 * DEFAULT_STEPS_PER_TURN + count);
  });
});
