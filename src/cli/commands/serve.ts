/** `rllm serve`: OpenAI-compatible servers; `--rerank <method> --upstream URL` answers each request with the tournament winner of n upstream samples. */
import type { Command } from "commander";
import { z } from "zod";
import { InputError } from "../../core/errors/input-error.js";
import { startRerankServer } from "../../tournament/rerank-server.js";
import { SelectionMethodSchema } from "../../tournament/selection-methods.js";
import { assertCheckpointDirectory } from "../check-paths.js";
import { parseFlags } from "../parse-flags.js";

const ServeFlagsSchema = z.object({
  rerank: SelectionMethodSchema.optional(),
  upstream: z.string().url().optional(),
  model: z.string().optional(),
  n: z.coerce.number().int().min(1).default(8),
  budget: z.coerce.number().positive().default(2),
  judgeKind: z.enum(["math", "code"]).default("math"),
  port: z.coerce.number().int().min(0).max(65535).default(8080),
  host: z.string().default("127.0.0.1"),
  seed: z.coerce.number().int().default(0),
  apiKeyEnv: z.string().default("OPENAI_API_KEY"),
  checkpoint: z.string().optional(),
});
type ServeFlags = z.infer<typeof ServeFlagsSchema>;

/** Registers `rllm serve`. */
export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description(
      "Serve an OpenAI-compatible /v1/chat/completions. With --model tiny: the embedded tiny model (also /v1/completions,\n" +
        "/tokenize, /detokenize, vLLM's return_token_ids). With --rerank: sample -n candidates from --upstream, run the tournament\n" +
        "with the same model as judge, answer with the winner (scores in the `rerank` field and the x-rllm-rerank header).",
    )
    .option("--rerank <method>", `rerank with this selection method (${SelectionMethodSchema.options.join(", ")})`)
    .option("--upstream <url>", "the OpenAI-compatible endpoint that generates and judges, e.g. http://localhost:8000/v1")
    .option("--model <name>", "`tiny`: serve the embedded tiny model; with --rerank: the model name sent upstream")
    .option("-n <count>", "candidates sampled per request", "8")
    .option("--budget <m>", "judge calls as a multiple of n", "2")
    .option("--judge-kind <kind>", "judge prompt: math (final answer only) or code (correct and robust)", "math")
    .option("--port <port>", "port to listen on (0: any free port)", "8080")
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--seed <n>", "base seed of the pairings", "0")
    .option("--api-key-env <VAR>", "environment variable holding the upstream API key", "OPENAI_API_KEY")
    .option("--checkpoint <dir>", "with --model tiny: serve this tiny-model checkpoint instead of the shipped one")
    .action(async (rawFlags: Record<string, unknown>) => {
      const flags = parseFlags(ServeFlagsSchema, rawFlags);
      if (flags.rerank === undefined && flags.model === "tiny") return serveTiny(flags);
      if (flags.rerank === undefined) throw new InputError("rllm serve: give --model tiny, or --rerank <method> --upstream <url>");
      await serveRerank(flags, flags.rerank);
    });
}

/** Serves the embedded tiny model (OpenAI-compatible, vLLM extensions) until Ctrl-C. */
async function serveTiny(flags: ServeFlags): Promise<void> {
  if (flags.checkpoint) assertCheckpointDirectory("--checkpoint", flags.checkpoint);
  // Imported here, not at the top: the tiny model brings TensorFlow, which `rllm serve --help` must not load.
  const { startTinyServer } = await import("../../models/tiny/server.js");
  const server = await startTinyServer({ port: flags.port, host: flags.host, checkpointDir: flags.checkpoint });
  console.error(`rllm: tiny model at ${server.url}/v1 (model "tiny", context ${server.model.config.contextLength} tokens)`);
  await new Promise<void>((resolve) => process.once("SIGINT", resolve));
  await server.close();
}

/** Runs the rerank server until Ctrl-C. */
async function serveRerank(flags: ServeFlags, method: z.infer<typeof SelectionMethodSchema>): Promise<void> {
  if (!flags.upstream) throw new InputError("--rerank needs --upstream <url> (the endpoint that generates and judges)");
  if (!flags.model) throw new InputError("--rerank needs --model <name> (the model the upstream serves)");
  const server = await startRerankServer({
    upstream: flags.upstream,
    model: flags.model,
    apiKey: process.env[flags.apiKeyEnv],
    n: flags.n,
    budget: flags.budget,
    method,
    judgeKind: flags.judgeKind,
    port: flags.port,
    host: flags.host,
    seed: flags.seed,
  });
  console.error(`rllm: reranking server at ${server.url} (${method}, n ${flags.n}, budget ${flags.budget}×n, upstream ${flags.upstream})`);
  await new Promise<void>((resolve) => process.once("SIGINT", resolve));
  await server.close();
}
