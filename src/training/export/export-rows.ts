/**
 * The three export row layouts of one train sequence: a plain JSONL row, Tinker's Datum (shifted by one, per-token
 * loss inputs as TensorData) and verl's row (RL dataset fields plus the token-level fields a DataProto is built from).
 */
import type { ChatMessage } from "../../core/message.js";
import { messageText } from "../../core/message.js";
import type { TrainSequence } from "../assign-advantages.js";

/** Where a sequence came from, beyond what the sequence itself holds. */
export interface SequenceContext {
  taskId: string;
  attempt: number;
  isCorrect: boolean;
  /** The first prompt's messages, for verl's `prompt` column. */
  promptMessages: ChatMessage[];
  /** Benchmark name (verl's data_source). */
  dataSource: string;
  /** Ground truth when the episode recorded one, else "". */
  groundTruth: string;
  /** Row number in the export (verl's extra_info.index). */
  index: number;
  /** The split the task came from (verl's extra_info.split). */
  split: string;
}

/** The JSONL layout: flat token arrays with mask, sampler logprobs, reward and advantage. */
export function toJsonlRow(sequence: TrainSequence, context: SequenceContext): Record<string, unknown> {
  return {
    episodeId: sequence.episodeId,
    taskId: context.taskId,
    role: sequence.role,
    groupKey: sequence.groupKey,
    reward: sequence.reward,
    advantage: sequence.advantage,
    isCorrect: context.isCorrect,
    promptLength: sequence.promptLength,
    tokens: sequence.tokens,
    lossMask: sequence.lossMask,
    samplerLogprobs: sequence.samplerLogprobs,
  };
}

interface TensorData {
  data: number[];
  dtype: "int64" | "float32";
  shape: number[];
}

const tensor = (data: number[], dtype: TensorData["dtype"]): TensorData => ({ data, dtype, shape: [data.length] });

/**
 * A Tinker Datum: position i of model_input predicts token i+1, so model_input = tokens[:-1] and every loss input
 * is tokens[1:]-aligned. `mask` is ours: Tinker strips it before sending (rLLM does the same), it is kept for readers.
 */
export function toTinkerDatum(sequence: TrainSequence): Record<string, unknown> {
  const shifted = (values: readonly number[]) => values.slice(1);
  const mask = shifted(sequence.lossMask);
  return {
    model_input: { chunks: [{ type: "encoded_text", tokens: sequence.tokens.slice(0, -1) }] },
    loss_fn_inputs: {
      target_tokens: tensor(shifted(sequence.tokens), "int64"),
      logprobs: tensor(shifted(sequence.samplerLogprobs), "float32"),
      advantages: tensor(mask.map((value) => value * sequence.advantage), "float32"),
      mask: tensor(mask, "float32"),
    },
  };
}

/** verl's RL dataset row (data_source, prompt, ability, reward_model, extra_info) plus the token-level training fields. */
export interface VerlRow {
  data_source: string;
  prompt: { role: string; content: string }[];
  ability: string;
  reward_model: { style: string; ground_truth: string };
  /** verl's gsm8k rows carry split and index here; the rest is ours. */
  extra_info: { split: string; index: number; episode_id: string; task_id: string; trajectory_name: string; attempt: number };
  /** Group id (GRPO/RLOO group by it): `<taskId>:<trajectoryName>`. */
  uid: string;
  prompt_ids: number[];
  /** Everything after the first prompt: sampled tokens and, for merged turns, observation tokens. */
  response_ids: number[];
  /** 1 on sampled tokens, 0 on observation tokens. */
  response_mask: number[];
  rollout_log_probs: number[];
  advantage: number;
  reward: number;
  is_correct: boolean;
}

/** The verl row of one sequence. */
export function toVerlRow(sequence: TrainSequence, context: SequenceContext): VerlRow {
  const split = sequence.promptLength;
  return {
    data_source: context.dataSource,
    prompt: context.promptMessages.map((message) => ({ role: message.role, content: messageText(message.content) })),
    ability: sequence.role,
    reward_model: { style: "rule", ground_truth: context.groundTruth },
    extra_info: {
      split: context.split,
      index: context.index,
      episode_id: sequence.episodeId,
      task_id: context.taskId,
      trajectory_name: sequence.role,
      attempt: context.attempt,
    },
    uid: sequence.groupKey,
    prompt_ids: sequence.tokens.slice(0, split),
    response_ids: sequence.tokens.slice(split),
    response_mask: sequence.lossMask.slice(split),
    rollout_log_probs: sequence.samplerLogprobs.slice(split),
    advantage: sequence.advantage,
    reward: sequence.reward,
    is_correct: context.isCorrect,
  };
}
