/** One function-completion problem (HumanEval, HumanEval+, MBPP+) as cached on disk: the prompt, its assert tests, a reference solution. */
import { z } from "zod";
import { RowIdSchema } from "rllm-ts/core";

export const CodeRowSchema = z
  .object({
    id: RowIdSchema,
    /** The problem as the model sees it: a function signature and docstring (HumanEval) or a docstring with one example (MBPP+). */
    question: z.string().min(1),
    /** The benchmark's own test code, run as assert tests against the program's functions (docs/code-verifier.md). */
    tests: z.array(z.object({ testtype: z.literal("assert"), code: z.string().min(1) })).min(1),
    entry_point: z.string().optional(),
    /** A known-correct program: the verifier must pass it. */
    reference_solution: z.string().optional(),
    source: z.string().optional(),
  })
  .passthrough();
export type CodeRow = z.infer<typeof CodeRowSchema>;
