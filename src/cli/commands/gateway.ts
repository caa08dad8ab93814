/** `rllm gateway --upstream URL --port P`: runs the token-capturing model gateway until Ctrl-C. */
import type { Command } from "commander";
import { z } from "zod";
import { startGateway } from "../../training/gateway/gateway-server.js";
import { DEFAULT_MAX_TRACES_IN_MEMORY } from "../../training/gateway/trace-store.js";
import { parseFlags } from "../parse-flags.js";

const GatewayFlagsSchema = z.object({
  upstream: z.string().url(),
  port: z.coerce.number().int().min(0).max(65_535).default(9090),
  host: z.string().default("127.0.0.1"),
  model: z.string().optional(),
  temperature: z.coerce.number().min(0).max(2).optional(),
  topP: z.coerce.number().gt(0).max(1).optional(),
  maxTokens: z.coerce.number().int().positive().optional(),
  apiKeyEnv: z.string().optional(),
  traceFile: z.string().optional(),
  maxTraces: z.coerce.number().int().positive().default(DEFAULT_MAX_TRACES_IN_MEMORY),
});

/** Registers `rllm gateway`. */
export function registerGatewayCommand(program: Command): void {
  program
    .command("gateway")
    .description(
      "Run an OpenAI-compatible proxy that records every chat call with its token ids and logprobs.\n" +
        "Point an agent (any language) at <gateway>/sessions/<id>/v1; read its calls back as Steps from\n" +
        "GET /sessions/<id>/steps (or the raw traces from GET /sessions/<id>/traces).",
    )
    .requiredOption("--upstream <url>", "OpenAI-compatible server that returns token ids (vLLM, SGLang, rllm serve), e.g. http://127.0.0.1:8000/v1")
    .option("--port <n>", "port to listen on (0 picks a free one)", "9090")
    .option("--host <address>", "address to bind", "127.0.0.1")
    .option("--model <name>", "pin every call to this model name")
    .option("--temperature <t>", "override every call's temperature")
    .option("--top-p <p>", "override every call's top_p")
    .option("--max-tokens <n>", "override every call's max_tokens")
    .option("--trace-file <path>", "append every trace to this JSONL file (evicted traces are read back from it)")
    .option("--max-traces <n>", "traces kept in memory across sessions; the oldest are evicted first", String(DEFAULT_MAX_TRACES_IN_MEMORY))
    .option("--api-key-env <VAR>", "environment variable with the upstream API key (else the client's Authorization header is forwarded)")
    .action(async (rawFlags: Record<string, unknown>) => {
      const flags = parseFlags(GatewayFlagsSchema, rawFlags);
      const gateway = await startGateway({
        upstream: flags.upstream,
        host: flags.host,
        port: flags.port,
        model: flags.model,
        sampling: { temperature: flags.temperature, topP: flags.topP, maxTokens: flags.maxTokens },
        apiKey: flags.apiKeyEnv ? process.env[flags.apiKeyEnv] : undefined,
        traceFile: flags.traceFile,
        maxTracesInMemory: flags.maxTraces,
      });
      console.log(`rllm gateway on ${gateway.url} → ${flags.upstream}`);
      console.log(`  traces: up to ${flags.maxTraces} in memory${flags.traceFile ? `, every one appended to ${flags.traceFile}` : " (no --trace-file: evicted traces are lost)"}`);
      console.log(`  agent base URL: ${gateway.url}/sessions/<session-id>/v1   steps: GET ${gateway.url}/sessions/<session-id>/steps`);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await gateway.close();
    });
}
