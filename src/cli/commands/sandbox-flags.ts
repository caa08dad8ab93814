/** `rllm sandbox serve`: the flag schema and its type, read by both the definition (sandbox-command.ts) and the action. */
import { z } from "zod";
import { concurrencyFlag, listenFlags, sandboxFlags } from "../shared-flags.js";

/** `rllm sandbox serve`'s flags. */
export const SandboxServeFlagsSchema = z.object({
  port: listenFlags.port.default(8080),
  host: listenFlags.host.describe("address to listen on (loopback by default; on another address set an API key)"),
  apiKeyEnv: z.string().optional().describe("environment variable holding the API key clients must send (Authorization: Bearer, or X-API-Key)").meta({ value: "VAR" }),
  concurrency: concurrencyFlag.optional().describe("programs run at once, one sandbox slot each (default: all cores)"),
  queue: z.coerce.number().int().nonnegative().optional().describe("requests waiting for a slot before the service answers 429 with Retry-After (default: 4 × concurrency)").meta({ value: "n" }),
  maxBodyMb: z.coerce.number().positive().default(16).describe("largest request body (code + stdin), MiB").meta({ value: "MiB" }),
  maxRunTimeout: z.coerce.number().positive().default(300).describe("longest run_timeout a request may ask for, seconds").meta({ value: "seconds" }),
  memoryMb: z.coerce.number().int().positive().optional().describe("memory cap of each sandbox, MiB (default 4096)").meta({ value: "MiB" }),
  python: sandboxFlags.python,
  unsafeNoSandbox: z.boolean().optional().describe("run programs without bubblewrap isolation (rlimits only) if no sandbox exists; never with secrets on the machine"),
});
/** `rllm sandbox serve`'s parsed flags. */
export type SandboxServeFlags = z.infer<typeof SandboxServeFlagsSchema>;
