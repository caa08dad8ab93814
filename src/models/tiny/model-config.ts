/** The tiny transformer's shape, validated when a checkpoint is read. */
import { z } from "zod";

export const TinyModelConfigSchema = z
  .object({
    vocabSize: z.number().int().positive(),
    /** Longest sequence (prompt + completion) in tokens; a judge prompt with two 3-step solutions is ~80. */
    contextLength: z.number().int().positive(),
    width: z.number().int().positive(),
    layers: z.number().int().positive(),
    heads: z.number().int().positive(),
    /** Hidden width of the MLP as a multiple of `width`. */
    mlpRatio: z.number().int().positive().default(4),
  })
  .strict()
  .refine((config) => config.width % config.heads === 0, { message: "width must be a multiple of heads" });
export type TinyModelConfig = z.infer<typeof TinyModelConfigSchema>;

/** Shape of every parameter tensor, by name, in a fixed order (the order of the weights file). */
export function parameterShapes(config: TinyModelConfig): [string, number[]][] {
  const { vocabSize, contextLength, width, layers, mlpRatio } = config;
  const shapes: [string, number[]][] = [
    ["tokenEmbedding", [vocabSize, width]],
    ["positionEmbedding", [contextLength, width]],
  ];
  for (let layer = 0; layer < layers; layer++) {
    const prefix = `layer${layer}.`;
    shapes.push(
      [`${prefix}attentionNorm.scale`, [width]],
      [`${prefix}attentionNorm.bias`, [width]],
      [`${prefix}qkv.weight`, [width, 3 * width]],
      [`${prefix}qkv.bias`, [3 * width]],
      [`${prefix}attentionOutput.weight`, [width, width]],
      [`${prefix}attentionOutput.bias`, [width]],
      [`${prefix}mlpNorm.scale`, [width]],
      [`${prefix}mlpNorm.bias`, [width]],
      [`${prefix}mlpIn.weight`, [width, mlpRatio * width]],
      [`${prefix}mlpIn.bias`, [mlpRatio * width]],
      [`${prefix}mlpOut.weight`, [mlpRatio * width, width]],
      [`${prefix}mlpOut.bias`, [width]],
    );
  }
  shapes.push(["finalNorm.scale", [width]], ["finalNorm.bias", [width]]);
  return shapes;
}
