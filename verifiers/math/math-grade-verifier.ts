/** The `math` GradeVerifier behind `rllm grade --verifier math`: rows {id?, response, ground_truth, choices?}. */
import { z } from "zod";
import { parseGradeFlags, type GradeVerifier } from "../grade-verifier.js";
import { defaultMathTimeoutMs, gradeMathBatch } from "./grade-math-batch.js";
import { MathPolicySchema } from "./math-policy.js";

export const MathRowSchema = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    response: z.string(),
    ground_truth: z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()])).min(1)]),
    /** Geo3K-style answer choices (A, B, C...), so that a letter can match the choice's value. */
    choices: z.array(z.string()).optional(),
  })
  .passthrough();
export type MathRow = z.infer<typeof MathRowSchema>;

// Command-line flags (`--set key=value`): the policy flags plus the time limit per check.
const MathFlagsSchema = MathPolicySchema.extend({
  timeoutMs: z.coerce.number().int().positive().default(defaultMathTimeoutMs),
}).strict();

export const mathGradeVerifier: GradeVerifier<MathRow> = {
  name: "math",
  description: "Math answers: last \\boxed{} (or answer phrase) against the ground truth, equivalent up to form, order, units and rounding policy.",
  rowSchema: MathRowSchema,
  async gradeRows(rows, options) {
    const flags = parseGradeFlags(MathFlagsSchema, options.flags);
    const { timeoutMs, ...policy } = flags;
    const jobs = rows.map((row) => ({ response: row.response, groundTruth: row.ground_truth, choices: row.choices }));
    const verdicts = await gradeMathBatch(jobs, { policy, timeoutMs, concurrency: options.concurrency, onProgress: options.onProgress });
    return verdicts.map((verdict) => ({ ...verdict }));
  },
};
