/** Speed of the shipped tiny model: sampling tokens per second (plain-JS KV-cache engine) and one training step (tfjs wasm). */
import { applyChatTemplate } from "../../src/models/tiny/chat-template.js";
import { SHIPPED_TRAINING } from "../../src/models/tiny/shipped-config.js";
import { createRng } from "../../src/core/random.js";
import { loadTinyModel } from "../../src/models/tiny/tiny-model.js";
import { readCheckpoint } from "../../src/models/tiny/checkpoint.js";
import { parameterCount } from "../../src/models/tiny/model-weights.js";
import { SHIPPED_CHECKPOINT_DIRECTORY } from "../../src/models/tiny/tiny-model.js";
import { supervisedLoss } from "../../src/models/tiny/trainable-model.js";
import { trainingBatch } from "../../src/models/tiny/training-data.js";
import { arithQuestion } from "../../benchmarks/arith/arith-problem.js";

const model = await loadTinyModel();
const { width, layers, heads, contextLength } = model.config;
const parameters = parameterCount((await readCheckpoint(SHIPPED_CHECKPOINT_DIRECTORY)).weights);
console.log(`shipped config: width ${width}, ${layers} layers, ${heads} heads, context ${contextLength}, ${parameters} parameters`);

// Sampling: 40 requests of n=4 at temperature 1, prompt prefill included.
const prompt = applyChatTemplate([{ role: "user", content: arithQuestion("12+7*3") }]);
let tokens = 0;
let started = performance.now();
for (let request = 0; request < 40; request++) {
  const choices = await model.generate(prompt, { n: 4, temperature: 1, topP: 1, maxTokens: 64, stop: [], topLogprobs: 0, seed: request });
  tokens += prompt.length + choices.reduce((total, choice) => total + choice.tokenIds.length, 0);
}
let seconds = (performance.now() - started) / 1000;
console.log(`sampling: ${tokens} tokens in ${seconds.toFixed(2)} s = ${(tokens / seconds).toFixed(0)} tokens/s (prefill + decode, n=4)`);

// Training: one supervised step of the shipped batch size on each kind of batch (after one warm-up step).
const learner = await model.createLearner();
const random = createRng(1);
const { batchSize } = SHIPPED_TRAINING[0]!;
for (const [label, judgeFraction] of [["warm-up", 0], ["solve batch", 0], ["judge batch", 1]] as const) {
  const examples = trainingBatch(random, batchSize, { judgeFraction, judgeFormat: "residues" });
  started = performance.now();
  learner.step(examples.map((example) => example.tokens), examples.map((example) => example.lossMask), supervisedLoss, { learningRate: 1e-4 });
  seconds = (performance.now() - started) / 1000;
  if (label !== "warm-up") console.log(`training step (${label}, ${batchSize} sequences): ${seconds.toFixed(2)} s`);
}
learner.dispose();
