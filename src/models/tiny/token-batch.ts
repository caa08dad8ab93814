/** Packs variable-length token sequences into one right-padded [batch, time] block with per-position weights. */
import { PAD_ID } from "./tokenizer.js";

export interface TokenBatch {
  batch: number;
  time: number;
  /** Token ids, row-major [batch, time], padded with PAD_ID. */
  ids: Int32Array;
  /** Per predicted position [batch, time-1]: weight of the target ids[b][t+1] (0 on padding). */
  targetWeights: Float32Array;
}

/**
 * Pads `sequences`; `weights[b][t]` (aligned with the tokens) weighs the prediction of token t, so the
 * weight of target position t-1 in the packed block is weights[b][t]. Token 0 is never predicted.
 */
export function packTokenBatch(sequences: readonly (readonly number[])[], weights: readonly (readonly number[])[]): TokenBatch {
  const batch = sequences.length;
  const time = Math.max(2, ...sequences.map((sequence) => sequence.length));
  const ids = new Int32Array(batch * time).fill(PAD_ID);
  const targetWeights = new Float32Array(batch * (time - 1));
  sequences.forEach((sequence, row) => {
    const rowWeights = weights[row] ?? [];
    if (rowWeights.length !== sequence.length) {
      throw new Error(`Sequence ${row} has ${sequence.length} tokens but ${rowWeights.length} weights`);
    }
    ids.set(sequence, row * time);
    for (let position = 1; position < sequence.length; position++) {
      targetWeights[row * (time - 1) + position - 1] = rowWeights[position]!;
    }
  });
  return { batch, time, ids, targetWeights };
}

/** Per-token values (aligned with the tokens, like loss masks) moved to the packed block's target positions [batch, time-1]. */
export function packTargetValues(packed: TokenBatch, values: readonly (readonly number[])[]): Float32Array {
  const result = new Float32Array(packed.batch * (packed.time - 1));
  values.forEach((row, rowIndex) => {
    for (let position = 1; position < row.length; position++) result[rowIndex * (packed.time - 1) + position - 1] = row[position]!;
  });
  return result;
}
