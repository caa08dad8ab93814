/** `rllm serve`'s action: OpenAI-compatible servers; `--rerank <method> --upstream URL` answers each request with the tournament winner of n upstream samples. */
import { InputError } from "../../core/errors/input-error.js";
import { startRerankServer } from "../../tournament/rerank-server.js";
import type { SelectionMethod } from "../../tournament/selection-methods.js";
import { assertCheckpointDirectory } from "../../core/check-paths.js";
import type { ServeFlags } from "./serve-command.js";

/** Serves the tiny model or the rerank server, as the flags say, until Ctrl-C. */
export async function serveAction(flags: ServeFlags): Promise<void> {
  if (flags.tinker) return serveTinker(flags);
  if (flags.rerank === undefined && flags.model === "tiny") return serveTiny(flags);
  if (flags.rerank === undefined) throw new InputError("rllm serve: give --model tiny, or --rerank <method> --upstream <url>");
  await serveRerank(flags, flags.rerank);
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

/** Serves the local Tinker server (a development tool) until Ctrl-C. */
async function serveTinker(flags: ServeFlags): Promise<void> {
  if (flags.checkpoint) assertCheckpointDirectory("--checkpoint", flags.checkpoint);
  const { startLocalTinkerServer, LOCAL_TINKER_MODEL } = await import("../../tinker-server/local-tinker-server.js");
  const { parseFaultPlan } = await import("../../tinker-server/server-faults.js");
  let faults: ReturnType<typeof parseFaultPlan>;
  try {
    faults = parseFaultPlan(flags.faults ?? process.env.RLLM_TINKER_FAULTS);
  } catch (error) {
    throw new InputError(`--faults: ${(error as Error).message}`);
  }
  const server = await startLocalTinkerServer({
    port: flags.port,
    host: flags.host,
    checkpoint: flags.checkpoint,
    faults,
    maxChunkDatums: flags.maxChunkDatums,
    maxChunkBytes: flags.maxChunkBytes,
    compress: flags.zstd,
  });
  console.error(`rllm: local Tinker server (development tool) at ${server.url}, model "${LOCAL_TINKER_MODEL}"; rllm train <cookbook> --backend tinker --base-url ${server.url}`);
  await new Promise<void>((resolve) => process.once("SIGINT", resolve));
  await server.close();
}

/** Runs the rerank server until Ctrl-C. */
async function serveRerank(flags: ServeFlags, method: SelectionMethod): Promise<void> {
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
