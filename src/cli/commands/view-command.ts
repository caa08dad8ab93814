/** `rllm view <run-dir>`: its help text and flag schema (for help); the report is made in view.ts. */
import { z } from "zod";
import { defineCommand } from "../command-definition.js";
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

/** `rllm view`. */
export const viewCommand = defineCommand<typeof ViewFlagsSchema, [string]>({
  name: "view",
  description:
    "Write one self-contained HTML report of a run (eval, rerank or training): summary, tasks table with filters and\n" +
    "search, transcripts, tournaments and training curves. Data and code are inline; it opens from a file and fetches\n" +
    "nothing. With --serve it is served locally and refreshes as episodes are appended to a run still being written.\n" +
    "An eval set folder (rllm eval --config) gets its comparison table, linking to a report written in each cell's folder.",
  arguments: [{ name: "<run-dir>", description: "run directory written by rllm eval or rllm train, or an eval set folder" }],
  flags: ViewFlagsSchema,
  loadAction: async () => (await import("./view.js")).viewAction,
});
