/** Builds the local backend: the tiny model trained in-process, sampled through its own server. */
import type { TrainingBackend } from "../backend.js";
import type { ChatTokenizer } from "../sft/tokenize-sft-row.js";
import { tinyChatTokenizer } from "../sft/tiny-chat-tokenizer.js";
import { createLocalBackend } from "./local-backend.js";
import { startTinySampler } from "./tiny-sampler.js";
import { readCheckpoint } from "../../models/tiny/checkpoint.js";
import { SHIPPED_CHECKPOINT_DIRECTORY } from "../../models/tiny/tiny-model.js";

/** The local backend and the base model it trains; `checkpoint` is a tiny-model checkpoint directory (default: the shipped one). */
export async function createLocalTrainingBackend(
  checkpoint: string = SHIPPED_CHECKPOINT_DIRECTORY,
): Promise<{ backend: TrainingBackend; baseModel: string; chatTokenizer: () => ChatTokenizer }> {
  const { manifest, weights } = await readCheckpoint(checkpoint);
  const backend = createLocalBackend({
    config: manifest.config,
    weights,
    startSampler: (weights) => startTinySampler(checkpoint, weights),
  });
  return { backend, baseModel: checkpoint, chatTokenizer: () => tinyChatTokenizer };
}
