/** `rllm grade`: the flag schema and its type, read by both the definition (grade-command.ts) and the action. */
import { z } from "zod";
import { gradeVerifiers } from "../../../verifiers/registry.js";
import { concurrencyFlag, sandboxFlags } from "../shared-flags.js";

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
  ...sandboxFlags,
  unsafeNoSandbox: z.boolean().optional().describe("local sandbox: run programs without bubblewrap isolation (rlimits and seccomp only) where bubblewrap is missing"),
});
/** `rllm grade`'s parsed flags. */
export type GradeFlags = z.infer<typeof GradeFlagsSchema>;
