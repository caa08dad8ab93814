/** Checkpoint files: `manifest.json` (config, tokenizer, training record, metrics) and `weights.bin` (float32, little-endian, in parameterShapes order). */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { describeIssues, InputError } from "../../core/errors/input-error.js";
import { parameterShapes, TinyModelConfigSchema, type TinyModelConfig } from "./model-config.js";
import type { ModelWeights } from "./model-weights.js";
import { VOCABULARY } from "./tokenizer.js";

export const CheckpointManifestSchema = z.object({
  format: z.literal("rllm-tiny-1"),
  config: TinyModelConfigSchema,
  /** The vocabulary in id order, so a checkpoint cannot silently load against another tokenizer. */
  tokenizer: z.object({ kind: z.literal("char-template"), vocabulary: z.array(z.string()) }),
  /** How the weights were made (seeds, steps, schedule), for the record. */
  training: z.record(z.string(), z.unknown()).default({}),
  /** Measured quality of these weights (arith accuracy, judge pairwise accuracy...). */
  metrics: z.record(z.string(), z.unknown()).default({}),
});
export type CheckpointManifest = z.infer<typeof CheckpointManifestSchema>;

export interface Checkpoint {
  manifest: CheckpointManifest;
  weights: ModelWeights;
}

/** Writes `manifest.json` and `weights.bin` into `directory` (created if missing). */
export async function writeCheckpoint(
  directory: string,
  config: TinyModelConfig,
  weights: ModelWeights,
  record: { training?: Record<string, unknown>; metrics?: Record<string, unknown> } = {},
): Promise<void> {
  await mkdir(directory, { recursive: true });
  const shapes = parameterShapes(config);
  const total = shapes.reduce((sum, [, shape]) => sum + shape.reduce((product, size) => product * size, 1), 0);
  const buffer = Buffer.alloc(total * 4);
  let offset = 0;
  for (const [name] of shapes) {
    for (const value of weights.get(name)!) offset = buffer.writeFloatLE(value, offset);
  }
  await writeFile(path.join(directory, "weights.bin"), buffer);
  await writeFile(path.join(directory, "manifest.json"), manifestText(config, record));
}

/**
 * The text of `manifest.json` for weights of this config, stored beside them in `weights.bin` (float32 little-endian,
 * parameterShapes order). Exported for writers that store the weights themselves (the local training backend).
 */
export function manifestText(config: TinyModelConfig, record: { training?: Record<string, unknown>; metrics?: Record<string, unknown> } = {}): string {
  const manifest: CheckpointManifest = {
    format: "rllm-tiny-1",
    config,
    tokenizer: { kind: "char-template", vocabulary: [...VOCABULARY] },
    training: record.training ?? {},
    metrics: record.metrics ?? {},
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}

/** Reads and validates a checkpoint; a wrong size, shape or vocabulary is an InputError naming the file. */
export async function readCheckpoint(directory: string): Promise<Checkpoint> {
  const manifestPath = path.join(directory, "manifest.json");
  const parsed = CheckpointManifestSchema.safeParse(JSON.parse(await readFile(manifestPath, "utf8")));
  if (!parsed.success) throw new InputError(describeIssues(manifestPath, undefined, parsed.error));
  const manifest = parsed.data;
  if (manifest.tokenizer.vocabulary.join("\u0000") !== VOCABULARY.join("\u0000")) {
    throw new InputError(`${manifestPath}: field "tokenizer.vocabulary": does not match this version's tokenizer`);
  }
  const weightsPath = path.join(directory, "weights.bin");
  const buffer = await readFile(weightsPath);
  const weights: ModelWeights = new Map();
  let offset = 0;
  for (const [name, shape] of parameterShapes(manifest.config)) {
    const size = shape.reduce((product, dimension) => product * dimension, 1);
    if (offset + size * 4 > buffer.length) throw new InputError(`${weightsPath}: too short for parameter "${name}"`);
    const values = new Float32Array(size);
    for (let index = 0; index < size; index++) values[index] = buffer.readFloatLE(offset + index * 4);
    weights.set(name, values);
    offset += size * 4;
  }
  if (offset !== buffer.length) throw new InputError(`${weightsPath}: ${buffer.length - offset} bytes left over`);
  return { manifest, weights };
}
