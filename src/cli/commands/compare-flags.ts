/** `rllm compare <runA> <runB>`: the flag schema and its type, read by both the definition (compare-command.ts) and the action. */
import { z } from "zod";

/** `rllm compare`'s flags. */
export const CompareFlagsSchema = z.object({
  html: z.string().optional().describe("also write the comparison as a self-contained HTML page").meta({ value: "file" }),
  force: z.boolean().default(false).describe("compare runs of different benchmarks (tasks are paired by id)"),
});
/** `rllm compare`'s parsed flags. */
export type CompareFlags = z.infer<typeof CompareFlagsSchema>;
