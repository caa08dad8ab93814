/** Model prices, in dollars per million tokens: given by the user (--prices file or a user-config endpoint), never shipped. */
import { z } from "zod";

/** One model's prices per million tokens; cached input is what the provider charges for prompt tokens it served from its prompt cache. */
export const ModelPriceSchema = z
  .object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    /** Defaults to the input price when the provider has no cached-input rate. */
    cachedInput: z.number().nonnegative().optional(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** A --prices file: prices by model name, e.g. `{ "gpt-4o-mini": { "input": 0.15, "output": 0.6, "cachedInput": 0.075 } }`. */
export const PriceTableSchema = z.record(z.string(), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;
