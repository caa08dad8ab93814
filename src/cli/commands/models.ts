/** `rllm models pull | list`'s actions: the catalogue of pullable models and the local store. */
import path from "node:path";
import { rllmHome } from "../../core/rllm-home.js";
import { KNOWN_MODELS, knownModel } from "../../models/catalog/known-models.js";
import { modelDirectory, modelsDirectory, pulledModels } from "../../models/catalog/model-store.js";
import { pullModel } from "../../models/catalog/pull-model.js";
import type { PullModelFlags } from "./models-flags.js";

/** `rllm models pull <name>`: downloads, checks and stores the model; prints where it is. */
export async function pullModelAction(flags: PullModelFlags, [name]: [string]): Promise<void> {
  const home = rllmHome();
  const manifest = await pullModel(knownModel(name), { home, python: flags.python, onProgress: (line) => console.error(`rllm: ${line}`) });
  console.log(`${manifest.name}: ${path.join(modelDirectory(home, manifest.name), manifest.file)} (${manifest.bytes} bytes, sha256 ${manifest.sha256}, ${manifest.licence})`);
}

/** `rllm models list`: each pullable model and whether it is pulled, then any other pulled model. */
export async function listModelsAction(): Promise<void> {
  const home = rllmHome();
  const pulled = new Map(pulledModels(home).map((manifest) => [manifest.name, manifest]));
  for (const model of Object.values(KNOWN_MODELS)) {
    const manifest = pulled.get(model.name);
    console.log(`${model.name}  ${model.description}`);
    console.log(`  source: ${model.source} · licence ${model.licence} · ${manifest ? `pulled ${manifest.pulledAt}: ${path.join(modelDirectory(home, model.name), manifest.file)}` : `not pulled (rllm models pull ${model.name})`}`);
  }
  console.log(`store: ${modelsDirectory(home)}; any other GGUF: --model-file <path.gguf>`);
}
