/** The saved record of one selection run: every judge verdict, the scores and the pick (schema = type source). */
import { z } from "zod";

export const WinnerSchema = z.enum(["A", "B", "tie"]);
export type Winner = z.infer<typeof WinnerSchema>;

/** One pairwise judge call: who sat in which slot, the two ratings (null on a parse error) and the verdict. */
export const ComparisonRecordSchema = z.object({
  round: z.number().int().nonnegative(),
  slotA: z.number().int().nonnegative(),
  slotB: z.number().int().nonnegative(),
  ratingA: z.number().nullable(),
  ratingB: z.number().nullable(),
  winner: WinnerSchema,
  parseError: z.boolean(),
  /** V1 only: which phase scheduled the pair. */
  phase: z.enum(["coverage", "swiss"]).optional(),
});
export type ComparisonRecord = z.infer<typeof ComparisonRecordSchema>;

/** One pointwise judge call on a single candidate. */
export const PointRecordSchema = z.object({
  round: z.number().int().nonnegative(),
  candidate: z.number().int().nonnegative(),
  rating: z.number().nullable(),
  parseError: z.boolean(),
});
export type PointRecord = z.infer<typeof PointRecordSchema>;

/** What a selection method returns: the pick, a score per candidate and every judge call it made. */
export const SelectionSchema = z.object({
  chosenIndex: z.number().int().nonnegative(),
  /** The top score was shared and the pick was drawn among the tied candidates with the seeded rng. */
  tieBreak: z.boolean(),
  scores: z.array(z.number()),
  judgeCalls: z.number().int().nonnegative(),
  rounds: z.number().int().nonnegative(),
  comparisons: z.array(ComparisonRecordSchema),
  points: z.array(PointRecordSchema),
});
export type Selection = z.infer<typeof SelectionSchema>;

/** The per-task tournament record saved next to an eval run or a rerank output. */
export const TournamentRecordSchema = SelectionSchema.extend({
  method: z.string(),
  /** The judge-call budget the method was given (methods with a fixed cost may use less or more). */
  budget: z.number().nonnegative(),
  candidateCount: z.number().int().positive(),
});
export type TournamentRecord = z.infer<typeof TournamentRecordSchema>;
