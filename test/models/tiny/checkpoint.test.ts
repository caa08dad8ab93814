import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readCheckpoint, writeCheckpoint } from "../../../src/models/tiny/checkpoint.js";
import { TinyModelConfigSchema } from "../../../src/models/tiny/model-config.js";
import { initialWeights } from "../../../src/models/tiny/model-weights.js";
import { SHIPPED_TRAINING } from "../../../src/models/tiny/shipped-config.js";
import { SHIPPED_CHECKPOINT_DIRECTORY } from "../../../src/models/tiny/tiny-model.js";
import { VOCABULARY } from "../../../src/models/tiny/tokenizer.js";

const config = TinyModelConfigSchema.parse({ vocabSize: VOCABULARY.length, contextLength: 16, width: 8, layers: 1, heads: 2 });

describe("tiny checkpoints", () => {
  it("read back exactly what was written", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "tiny-checkpoint-"));
    const weights = initialWeights(config, 5);
    await writeCheckpoint(directory, config, weights, { metrics: { arithAccuracy: 0.5 } });
    const checkpoint = await readCheckpoint(directory);
    expect(checkpoint.manifest.config).toEqual(config);
    expect(checkpoint.manifest.metrics).toEqual({ arithAccuracy: 0.5 });
    for (const [name, values] of weights) expect(checkpoint.weights.get(name)).toEqual(values);
  });

  it("refuses a manifest whose vocabulary differs, naming the file and field", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "tiny-checkpoint-"));
    await writeCheckpoint(directory, config, initialWeights(config, 5));
    const manifestPath = path.join(directory, "manifest.json");
    const manifest = JSON.parse(await readFile(manifestPath, "utf8"));
    manifest.tokenizer.vocabulary = manifest.tokenizer.vocabulary.slice(1);
    await writeFile(manifestPath, JSON.stringify(manifest));
    await expect(readCheckpoint(directory)).rejects.toThrow(/manifest\.json: field "tokenizer\.vocabulary"/);
  });

  it("ships a checkpoint under 5 MB with its config and training record", async () => {
    const { size } = await stat(path.join(SHIPPED_CHECKPOINT_DIRECTORY, "weights.bin"));
    expect(size).toBeLessThan(5 * 1024 * 1024);
    const { manifest } = await readCheckpoint(SHIPPED_CHECKPOINT_DIRECTORY);
    const phases = manifest.training.phases as Array<Record<string, unknown>>;
    expect(phases.length).toBeGreaterThan(0);
    for (const phase of phases) expect(phase.stepsDone).toBe(phase.steps);
    // The checkpoint is the one the shipped recipe makes: every phase, with its exact options, and no other.
    expect(phases.map(({ stepsDone, loss, ...options }) => options)).toEqual(SHIPPED_TRAINING);
    expect(manifest.metrics).toHaveProperty("arithAccuracy");
    expect(manifest.config.contextLength).toBeGreaterThanOrEqual(100);
  });
});
