// One llama.cpp context decoding many sequences at once: every sequence must get its own logits. node-llama-cpp samples
// the sequences of a batch in parallel threads, and llama.cpp reorders a batch's output rows in place on first read
// when it computed them out of order; before batchWithoutReordering, 16 of 32 greedy sequences started together
// diverged from the greedy answer once logprobs were asked for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LlamaCppModel } from "../../../src/models/llama-cpp/llama-cpp-model.js";
import { TEST_MODEL, testModelFile } from "../../helpers/test-model.js";

let model: LlamaCppModel;

beforeAll(async () => {
  model = await LlamaCppModel.load({ file: await testModelFile(), name: TEST_MODEL, threads: 1 });
}, 600_000);

afterAll(async () => model?.dispose());

const greedy = { maxTokens: 16, temperature: 0, topP: 1, stop: [], seed: 1 };

describe("a llama.cpp context under concurrency", () => {
  it("gives all choices of a greedy request the single answer, logprobs and top logprobs included", async () => {
    const prompt = model.applyChatTemplate([{ role: "user", content: "Name a colour." }]);
    for (const logprobs of [{ logprobs: true, topLogprobs: 0 }, { logprobs: true, topLogprobs: 2 }]) {
      const context = await model.createContext();
      const [alone] = await context.generate(prompt, { ...greedy, ...logprobs, n: 1 });
      for (let round = 0; round < 3; round++) {
        const choices = await context.generate(prompt, { ...greedy, ...logprobs, n: 8 });
        expect(choices.map((choice) => choice.tokenIds)).toEqual(choices.map(() => alone!.tokenIds));
        expect(choices.map((choice) => choice.logprobs)).toEqual(choices.map(() => alone!.logprobs));
      }
      await context.dispose();
    }
  }, 600_000);

  it("gives requests that start while others decode the answers they get alone", async () => {
    const context = await model.createContext();
    const prompts = ["Name a colour.", "What is the capital of France?", "Tell me a joke."].map((content) => model.applyChatTemplate([{ role: "user", content }]));
    const options = { ...greedy, logprobs: true, topLogprobs: 0, n: 1 };
    const alone: number[][] = [];
    for (const prompt of prompts) alone.push((await context.generate(prompt, options))[0]!.tokenIds);
    // Staggered starts: prompts are evaluated while earlier requests are mid-answer.
    const staggered = prompts.flatMap((prompt, index) =>
      [0, 1, 2].map((copy) => new Promise<number[]>((resolve) => setTimeout(async () => resolve((await context.generate(prompt, options))[0]!.tokenIds), (index * 3 + copy) * 40))),
    );
    const answers = await Promise.all(staggered);
    expect(answers).toEqual(prompts.flatMap((_, index) => [alone[index], alone[index], alone[index]]));
    await context.dispose();
  }, 600_000);

  it("reports for each sampled token the logprob the context gives it when scored afterwards", async () => {
    const context = await model.createContext();
    const prompt = model.applyChatTemplate([{ role: "user", content: "Name a colour." }]);
    const choices = await context.generate(prompt, { ...greedy, temperature: 1, seed: 5, logprobs: true, topLogprobs: 0, n: 8 });
    for (const choice of choices) {
      const rescored = await context.sequenceLogprobs([...prompt, ...choice.tokenIds]);
      expect(rescored.slice(prompt.length)).toEqual(choice.logprobs);
    }
    await context.dispose();
  }, 600_000);
});
