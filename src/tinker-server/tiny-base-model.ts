/** The embedded tiny model as the local Tinker server's base model: a tfjs learner on full weights (which stand in for LoRA). */
import { readCheckpoint } from "../models/tiny/checkpoint.js";
import { SHIPPED_CHECKPOINT_DIRECTORY } from "../models/tiny/tiny-model.js";
import { VOCABULARY } from "../models/tiny/tokenizer.js";
import { TINY_TOKENIZER_ID } from "../llm/tinker/tiny-chat-renderer.js";
import type { TinkerBaseModel } from "./tinker-base-model.js";
import { TinySamplingSessions } from "./tiny-sampling-sessions.js";
import { TinyTinkerLearner } from "./tiny-tinker-learner.js";

/** The base model name the server trains by default. */
export const LOCAL_TINKER_MODEL = "rllm/tiny";

/** The tiny model of `checkpoint` (default: the shipped one). */
export async function loadTinyBaseModel(checkpoint: string = SHIPPED_CHECKPOINT_DIRECTORY): Promise<TinkerBaseModel> {
  const { manifest, weights } = await readCheckpoint(checkpoint);
  return {
    name: LOCAL_TINKER_MODEL,
    contextLength: manifest.config.contextLength,
    vocabularySize: VOCABULARY.length,
    info: { arch: "rllm-tiny-transformer", tokenizerId: TINY_TOKENIZER_ID, isLora: false, note: "local Tinker server: full weights stand in for LoRA; the rank is recorded, not applied" },
    baseSamplerWeights: weights,
    sampling: new TinySamplingSessions(checkpoint),
    createLearner: () => TinyTinkerLearner.create(manifest.config, weights, VOCABULARY.length),
    close: async () => {},
  };
}
