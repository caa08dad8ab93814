/** The factory every training backend exports, and the flags `rllm train` and `rllm sft` hand it. */
import type { TrainingBackend } from "../backend.js";
import type { ChatTokenizer } from "../sft/tokenize-sft-row.js";

/** What `rllm train` passes on to a remote backend: the base model, LoRA rank, service URL, tokenizer, notices. */
export interface BackendFlags {
  model?: string;
  loraRank?: number;
  baseUrl?: string;
  /** A directory with tokenizer.json and tokenizer_config.json. */
  tokenizer?: string;
  notify?: (message: string) => void;
}

/**
 * Builds a backend from a starting checkpoint (the backend's default when absent) and the flags it reads; gives the
 * base model it trains and, when it has one, the model's chat template and tokenizer (for SFT rows without sampled
 * token ids), known once the backend is open (Tinker learns the model's tokenizer from the service).
 */
export type CreateTrainingBackend = (
  checkpoint?: string,
  flags?: BackendFlags,
) => Promise<{ backend: TrainingBackend; baseModel: string; chatTokenizer?: () => ChatTokenizer | undefined }>;
