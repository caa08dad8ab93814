/** `rllm new`: the flag schema and its type, read by both the definition (new-command.ts) and the action. */
import { z } from "zod";

/** `rllm new`'s flags. */
export const NewFlagsSchema = z.object({
  out: z.string().optional().describe("folder to write into (default ./<name>)").meta({ value: "dir" }),
  force: z.boolean().default(false).describe("write into a folder that already holds files (existing files of the same name are replaced)"),
});
/** `rllm new`'s parsed flags. */
export type NewFlags = z.infer<typeof NewFlagsSchema>;
