/** `rllm gateway`: its help text and arguments (light, for help; the flags are in gateway-flags.ts); the server is started by gateway.ts. */
import { defineCommand, noArguments } from "../command-definition.js";
import { GatewayFlagsSchema } from "./gateway-flags.js";

/** `rllm gateway`. */
export const gatewayCommand = defineCommand({
  name: "gateway",
  description:
    "Run an OpenAI-compatible proxy that records every chat call with its token ids and logprobs.\n" +
    "Point an agent (any language) at <gateway>/sessions/<id>/v1; read its calls back as Steps from\n" +
    "GET /sessions/<id>/steps (or the raw traces from GET /sessions/<id>/traces).",
  arguments: noArguments,
  flags: GatewayFlagsSchema,
  loadAction: async () => (await import("./gateway.js")).gatewayAction,
});
