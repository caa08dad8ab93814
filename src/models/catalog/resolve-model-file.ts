/** The GGUF a command runs: `--model-file <path.gguf>`, or a catalogue name pulled into $RLLM_HOME/models. */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../core/errors/input-error.js";
import { optionName, usageMessage } from "../../core/errors/option-name.js";
import { KNOWN_MODELS, knownModel } from "./known-models.js";
import { ModelNotPulledError } from "./model-not-pulled-error.js";
import { modelDirectory, readModelManifest } from "./model-store.js";

/** A GGUF to serve, and the name requests use for it. */
export interface ModelFile {
  /** The catalogue name, or the file's name without `.gguf`. */
  name: string;
  path: string;
}

/** Whether `name` is a model of the catalogue (so no --base-url is needed to run it). */
export function isKnownModel(name: string): boolean {
  return Object.hasOwn(KNOWN_MODELS, name);
}

/** Checks the `modelFile` option (`--model-file`) and answers it as a served model. */
export function localModelFile(file: string): ModelFile {
  const option = optionName("modelFile");
  if (!file.endsWith(".gguf")) throw new InputError(usageMessage`${option} ${file}: not a .gguf file (llama.cpp serves GGUF models)`);
  if (!existsSync(file) || !statSync(file).isFile()) throw new InputError(usageMessage`${option} ${file}: no such file`);
  return { name: path.basename(file, ".gguf"), path: path.resolve(file) };
}

/** The pulled GGUF of catalogue model `name`; a model not pulled yet is one line naming `rllm models pull`. */
export function pulledModelFile(name: string, home: string): ModelFile {
  knownModel(name);
  const manifest = readModelManifest(home, name);
  const file = manifest && path.join(modelDirectory(home, name), manifest.file);
  if (!file || !existsSync(file)) throw new ModelNotPulledError(name, home);
  const bytes = statSync(file).size;
  if (bytes !== manifest.bytes) throw new InputError(`${file}: ${bytes} bytes, but its model.json says ${manifest.bytes} (cut short?): pull it again with \`rllm models pull ${name}\``);
  return { name, path: file };
}
