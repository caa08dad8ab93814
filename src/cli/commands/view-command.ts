/** `rllm view <run-dir>`: its help text and arguments (light, for help; the flags are in view-flags.ts); the report is made in view.ts. */
import { z } from "zod";
import { defineCommand } from "../command-definition.js";
import { ViewFlagsSchema } from "./view-flags.js";

/** `rllm view`. */
export const viewCommand = defineCommand({
  name: "view",
  description:
    "Write one self-contained HTML report of a run (eval, rerank or training): summary, tasks table with filters and\n" +
    "search, transcripts, tournaments and training curves. Data and code are inline; it opens from a file and fetches\n" +
    "nothing. With --serve it is served locally and refreshes as episodes are appended to a run still being written.\n" +
    "An eval set folder (rllm eval --config) gets its comparison table, linking to a report written in each cell's folder.",
  arguments: z.tuple([z.string().describe("run directory written by rllm eval, rllm train or rllm sft, or an eval set folder").meta({ value: "run-dir" })]),
  flags: ViewFlagsSchema,
  loadAction: async () => (await import("./view.js")).viewAction,
});
