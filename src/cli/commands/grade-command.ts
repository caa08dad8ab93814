/** `rllm grade`: its help text and flag schema (for help); the grading itself is in grade.ts. */
import { z } from "zod";
import { gradeVerifiers } from "../../../verifiers/registry.js";
import { defineCommand } from "../command-definition.js";
import { concurrencyFlag } from "../shared-flags.js";

/** `rllm grade`'s flags; the code verifier's own flags are passed through to it when given. */
export const GradeFlagsSchema = z.object({
  verifier: z.string().min(1).describe(`verifier (${gradeVerifiers.names().join(", ")})`).meta({ value: "name" }),
  input: z.string().min(1).describe("rows to grade (math: {id?, response, ground_truth, choices?}; code: {id?, response, tests, fn_name?})").meta({ value: "rows.jsonl" }),
  output: z.string().optional().describe("where to write verdict rows (default: stdout)").meta({ value: "verdicts.jsonl" }),
  concurrency: concurrencyFlag.optional().describe("worker threads or sandboxes at once (default: all cores)"),
  set: z.array(z.string()).default([]).describe("verifier flag, repeatable (math: policy flags and timeoutMs)").meta({ value: "key=value" }),
  timeout: z.coerce.number().positive().optional().describe("code: per-test time limit (default 6)").meta({ value: "seconds" }),
  runAllTests: z.boolean().optional().describe("code: run every test instead of stopping at the first failure"),
  floatTolerance: z.coerce.number().nonnegative().optional().describe("code: accept numbers within x·max(1,|expected|) (default: exact)").meta({ value: "x" }),
  unsafeNoSandbox: z.boolean().optional().describe("code: run programs without bubblewrap isolation (rlimits only) if no sandbox exists"),
  sandboxUrl: z
    .string()
    .optional()
    .describe("code: run programs on SandboxFusion-compatible services (rllm sandbox serve, or SandboxFusion), comma-separated; default: config.json's sandbox.urls, else the local sandbox")
    .meta({ value: "url[,url…]" }),
});
/** `rllm grade`'s parsed flags. */
export type GradeFlags = z.infer<typeof GradeFlagsSchema>;

/** `rllm grade`. */
export const gradeCommand = defineCommand({
  name: "grade",
  description:
    "Grade rows of a JSONL file with a verifier. Each output row is the input row plus its Score\n" +
    "(value, isCorrect, status scored|unscored, answer, explanation, signals; see docs/file-formats.md).\n" +
    "Prints the accuracy of the scored rows, and counts unscored rows, timeouts and infrastructure\n" +
    "errors apart (those are not counted in the accuracy).",
  flags: GradeFlagsSchema,
  loadAction: async () => (await import("./grade.js")).gradeAction,
});
