/** `rllm cache stats | clear [--older-than]`: the flag schema and its type, read by both the definition (cache-command.ts) and the action. */
import { z } from "zod";

/** `rllm cache clear`'s flags. */
export const ClearFlagsSchema = z.object({
  olderThan: z.string().optional().describe("delete only replies older than this (90s, 30m, 12h, 7d)").meta({ value: "duration" }),
});
/** `rllm cache clear`'s parsed flags. */
export type ClearFlags = z.infer<typeof ClearFlagsSchema>;
