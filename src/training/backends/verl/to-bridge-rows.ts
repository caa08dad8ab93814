/** Turns a batch's sequences into bridge rows, dropping (and counting) those longer than the verl job's prompt or response length. */
import type { BatchSequence } from "../../backend.js";
import type { BridgeRow } from "./verl-bridge-protocol.js";

/** The rows to send and how many sequences exceeded the job's `data.max_prompt_length` / `data.max_response_length`. */
export function toBridgeRows(
  sequences: readonly BatchSequence[],
  limits: { maxPromptLength: number; maxResponseLength: number },
): { rows: BridgeRow[]; droppedOverlong: number } {
  const rows: BridgeRow[] = [];
  let droppedOverlong = 0;
  for (const sequence of sequences) {
    // Without a recorded prompt length, the prompt is everything before the first trained token.
    const promptLength = sequence.promptLength ?? Math.max(1, sequence.lossMask.indexOf(1));
    if (promptLength > limits.maxPromptLength || sequence.tokens.length - promptLength > limits.maxResponseLength) {
      droppedOverlong += 1;
      continue;
    }
    rows.push({
      tokens: sequence.tokens,
      lossMask: sequence.lossMask.map((value) => (value > 0 ? 1 : 0)),
      samplerLogprobs: sequence.samplerLogprobs,
      promptLength,
      advantage: sequence.advantage,
      reward: sequence.reward ?? 0,
      groupKey: sequence.groupKey ?? "",
      role: sequence.role ?? "solver",
    });
  }
  return { rows, droppedOverlong };
}
