/** `rllm verl launch | status | logs | stop`: help text and arguments (light, for help; the flags are in verl-flags.ts); the work is in verl.ts. */
import { z } from "zod";
import { defineCommand, defineCommandGroup, noArguments } from "../command-definition.js";
import { VerlLaunchFlagsSchema, VerlLogsFlagsSchema, VerlStatusFlagsSchema, VerlStopFlagsSchema } from "./verl-flags.js";

const jobArgument = z.tuple([z.string().describe("the job's submission id").meta({ value: "job-id" })]);

/** `rllm verl` and its subcommands. */
export const verlCommand = defineCommandGroup({
  name: "verl",
  description:
    "Run the verl side of `rllm train --backend verl` on a Ray cluster through the Ray Jobs REST API (the head node's\n" +
    "dashboard, port 8265). Exit codes: 0 the job SUCCEEDED (or is still running, without --wait/--follow), 1 it FAILED\n" +
    "or was STOPPED, 2 bad usage (also an unknown job id or a refused token).",
  subcommands: [
    defineCommand({
      name: "launch",
      description: "submit the bridge trainer (python3 -m rllm_verl.main) with the canonical GRPO overrides; prints the job id",
      arguments: noArguments,
      flags: VerlLaunchFlagsSchema,
      loadAction: async () => (await import("./verl.js")).launchVerlJob,
    }),
    defineCommand({
      name: "status",
      description: "print the job's status (PENDING, RUNNING, SUCCEEDED, FAILED, STOPPED) and message",
      arguments: jobArgument,
      flags: VerlStatusFlagsSchema,
      loadAction: async () => (await import("./verl.js")).verlJobStatus,
    }),
    defineCommand({
      name: "logs",
      description: "print the job's logs",
      arguments: jobArgument,
      flags: VerlLogsFlagsSchema,
      loadAction: async () => (await import("./verl.js")).verlJobLogs,
    }),
    defineCommand({
      name: "stop",
      description: "ask Ray to stop the job",
      arguments: jobArgument,
      flags: VerlStopFlagsSchema,
      loadAction: async () => (await import("./verl.js")).stopVerlJob,
    }),
  ],
});
