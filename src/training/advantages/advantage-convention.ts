/** Which reference implementation's statistics the estimators follow where the papers leave a choice. */
import { z } from "zod";

/**
 * `verl` (default): verl 0.9.1's `core_algos` — Bessel-corrected std (torch.std), a group of one measured against a
 * baseline of 0 with std 1, REINFORCE++ whitened over trained tokens (masked_whiten: each trajectory weighs its token
 * count, variance Bessel-corrected over tokens, 1e-8 under the root). `population`: per-trajectory statistics with the
 * population std (numpy's ddof 0) + 1e-6, and a group of one gets 0.
 */
export const AdvantageConventionSchema = z.enum(["verl", "population"]);
export type AdvantageConvention = z.infer<typeof AdvantageConventionSchema>;
