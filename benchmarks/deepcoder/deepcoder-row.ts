/** One DeepCoder problem as cached on disk (bundled sample, pulled split, or --data file), and its Task. */
import { z } from "zod";
import { RowIdSchema, type Task } from "rllm-ts/core";

export const DeepcoderRowSchema = z
  .object({
    id: RowIdSchema,
    /** The problem statement. */
    question: z.string().min(1),
    /** Function header the answer must complete (LeetCode/HumanEval style); empty for stdin/stdout problems. */
    starter_code: z.string().nullish(),
    /** Tests in any encoding the code verifier normalises (a list, a TACO dict, or either as a JSON string). */
    tests: z.unknown().refine((tests) => tests !== undefined && tests !== null, "tests are required"),
    fn_name: z.string().nullish(),
    /** Which DeepCoder subset (primeintellect, taco, lcbv5, codeforces) or other origin the row came from. */
    source: z.string().optional(),
    /** A known-correct program (bundled sample): the verifier must give it full marks. */
    reference_solution: z.string().optional(),
  })
  .passthrough();
export type DeepcoderRow = z.infer<typeof DeepcoderRowSchema>;

/** The Task of a row: the statement is the instruction, the row (tests, starter code) is the metadata. */
export function deepcoderTask(row: DeepcoderRow): Task {
  return { id: row.id, instruction: row.question, metadata: { ...row } };
}
