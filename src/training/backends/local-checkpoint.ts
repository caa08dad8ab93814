/**
 * The local backend's checkpoint: weights and Adam moments as raw float32 files, plus the trainer's state (version,
 * step, shapes) in `trainer-state.json`. The backend also writes a tiny-model `manifest.json` beside them, so the
 * directory is a checkpoint that `rllm serve --model tiny --checkpoint DIR` loads as it is.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { describeIssues, InputError } from "../../core/errors/input-error.js";
import { manifestText } from "../../models/tiny/checkpoint.js";
import type { TinyModelConfig } from "../../models/tiny/model-config.js";

export const LocalCheckpointManifestSchema = z
  .object({
    policyVersion: z.number().int().nonnegative(),
    adamStep: z.number().int().nonnegative(),
    /** Parameter names and shapes in file order. */
    shapes: z.array(z.tuple([z.string(), z.array(z.number().int().positive())])),
  })
  .strict();
export type LocalCheckpointManifest = z.infer<typeof LocalCheckpointManifestSchema>;

/** Tensors by parameter name for one file (weights, first moments or second moments). */
export type NamedArrays = Map<string, Float32Array>;

export interface LocalCheckpoint {
  manifest: LocalCheckpointManifest;
  weights: NamedArrays;
  firstMoment: NamedArrays;
  secondMoment: NamedArrays;
}

const FILES = { weights: "weights.bin", firstMoment: "adam-first.bin", secondMoment: "adam-second.bin" } as const;
const STATE_FILE = "trainer-state.json";

/** Writes the checkpoint into `directory` (created if needed), with a tiny-model manifest for weights of `config`. */
export function writeLocalCheckpoint(directory: string, config: TinyModelConfig, checkpoint: LocalCheckpoint): void {
  mkdirSync(directory, { recursive: true });
  for (const key of ["weights", "firstMoment", "secondMoment"] as const) {
    const arrays = checkpoint.manifest.shapes.map(([name]) => checkpoint[key].get(name)!);
    writeFileSync(path.join(directory, FILES[key]), Buffer.concat(arrays.map((array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength))));
  }
  writeFileSync(path.join(directory, STATE_FILE), JSON.stringify(checkpoint.manifest, null, 2) + "\n");
  // weights.bin is already in the tiny model's layout (float32 in parameterShapes order, little-endian on the hosts
  // Node runs on); this manifest beside it makes the directory a checkpoint `rllm serve --model tiny` loads.
  const { policyVersion, adamStep } = checkpoint.manifest;
  writeFileSync(path.join(directory, "manifest.json"), manifestText(config, { training: { objective: "rllm train, local backend", policyVersion, adamStep } }));
}

/** Reads a checkpoint written by writeLocalCheckpoint; a missing or inconsistent file is an InputError naming it. */
export function readLocalCheckpoint(directory: string): LocalCheckpoint {
  const manifestFile = path.join(directory, STATE_FILE);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(manifestFile, "utf8"));
  } catch (error) {
    throw new InputError(`${manifestFile}: cannot read the trainer state (${(error as Error).message})`);
  }
  const parsed = LocalCheckpointManifestSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(describeIssues(manifestFile, undefined, parsed.error));
  const manifest = parsed.data;
  const read = (file: string): NamedArrays => {
    const bytes = readFileSync(path.join(directory, file));
    const values = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    const arrays: NamedArrays = new Map();
    let offset = 0;
    for (const [name, shape] of manifest.shapes) {
      const size = shape.reduce((product, dimension) => product * dimension, 1);
      arrays.set(name, values.slice(offset, offset + size));
      offset += size;
    }
    if (offset !== values.length) {
      throw new InputError(`${path.join(directory, file)}: ${values.length} values, the manifest's shapes need ${offset}`);
    }
    return arrays;
  };
  return { manifest, weights: read(FILES.weights), firstMoment: read(FILES.firstMoment), secondMoment: read(FILES.secondMoment) };
}
