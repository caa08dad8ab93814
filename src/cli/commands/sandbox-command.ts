/** `rllm sandbox serve`: its help text and arguments (light, for help; the flags are in sandbox-flags.ts); the service is started by sandbox.ts. */
import { defineCommand, defineCommandGroup, noArguments } from "../command-definition.js";
import { SandboxServeFlagsSchema } from "./sandbox-flags.js";

/** `rllm sandbox` and its subcommand. */
export const sandboxCommand = defineCommandGroup({
  name: "sandbox",
  description: "The code sandbox as a service, for grading past one machine (docs/code-sandbox.md#a-pool-of-sandbox-services).",
  subcommands: [
    defineCommand({
      name: "serve",
      description:
        "Serve the bubblewrap code sandbox behind SandboxFusion's HTTP API (POST /run_code, GET /v1/ping,\n" +
        "/health, /metrics): point verl's sandbox_fusion reward, tinker-cookbook's code RL or\n" +
        "`rllm eval|grade|train --sandbox http://host:port` at it. Python programs only.",
      arguments: noArguments,
      flags: SandboxServeFlagsSchema,
      loadAction: async () => (await import("./sandbox.js")).sandboxServe,
    }),
  ],
});
