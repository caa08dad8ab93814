/** `rllm view <run-dir>`: the flag schema and its type, read by both the definition (view-command.ts) and the action. */
import { z } from "zod";
import { listenFlags } from "../shared-flags.js";

/** `rllm view`'s flags. */
export const ViewFlagsSchema = z.object({
  out: z.string().optional().describe("report file to write (default <run-dir>/report.html; with --serve, written only when given)").meta({ value: "file" }),
  serve: z.boolean().default(false).describe("serve the report on --host:--port and follow the run as it is written, until Ctrl-C"),
  port: listenFlags.port.default(7575),
  host: listenFlags.host,
});
/** `rllm view`'s parsed flags. */
export type ViewFlags = z.infer<typeof ViewFlagsSchema>;
