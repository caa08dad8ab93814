/** Where pulled models live: $RLLM_HOME/models/<name>/<file>.gguf beside a model.json recording source, licence and hash. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { describeIssues, InputError } from "../../core/errors/input-error.js";

export const ModelManifestSchema = z.object({
  name: z.string(),
  file: z.string(),
  bytes: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  licence: z.string(),
  source: z.string(),
  requirement: z.string(),
  wheelSha256: z.string(),
  huggingFaceId: z.string(),
  pulledAt: z.string(),
});
/** model.json: what was pulled, from where, under which licence, with which hash. */
export type ModelManifest = z.infer<typeof ModelManifestSchema>;

/** The folder that holds every pulled model. */
export function modelsDirectory(home: string): string {
  return path.join(home, "models");
}

/** The folder of one pulled model. */
export function modelDirectory(home: string, name: string): string {
  return path.join(modelsDirectory(home), name);
}

/** The manifest of a pulled model, or undefined when it was never pulled. */
export function readModelManifest(home: string, name: string): ModelManifest | undefined {
  const file = path.join(modelDirectory(home, name), "model.json");
  if (!existsSync(file)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new InputError(`${file}: not JSON (${(error as Error).message}); pull the model again: rllm models pull ${name}`);
  }
  const parsed = ModelManifestSchema.safeParse(json);
  if (!parsed.success) throw new InputError(describeIssues(file, undefined, parsed.error));
  return parsed.data;
}

/** The manifests of every pulled model whose GGUF is still there, by name. */
export function pulledModels(home: string): ModelManifest[] {
  const directory = modelsDirectory(home);
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .sort()
    .map((name) => readModelManifest(home, name))
    .filter((manifest): manifest is ModelManifest => manifest !== undefined && existsSync(path.join(modelDirectory(home, manifest.name), manifest.file)));
}
