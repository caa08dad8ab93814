/** `rllm serve`'s action: OpenAI-compatible servers; `--rerank <method> --upstream URL` answers each request with the tournament winner of n upstream samples. */
import { existsSync } from "node:fs";
import { readTrainedOn } from "../../runs/read-run-files.js";
import path from "node:path";
import { InputError } from "../../core/errors/input-error.js";
import { planEndpoint } from "../../evaluation/resolve-endpoint.js";
import { knownModel } from "../../models/catalog/known-models.js";
import { modelDirectory } from "../../models/catalog/model-store.js";
import { isKnownModel, pulledModelFile } from "../../models/catalog/resolve-model-file.js";
import { threadCount } from "../../models/llama-cpp/choose-thread-count.js";
import { rllmHome } from "../../core/rllm-home.js";
import { startRerankServer } from "../../tournament/rerank-server.js";
import type { SelectionMethod } from "../../tournament/selection-methods.js";
import { assertCheckpointDirectory } from "../../core/check-paths.js";
import { waitForStop } from "../wait-for-stop.js";
import type { ServeFlags } from "./serve-flags.js";
import { needsTensorflow } from "../../models/tiny/needs-tensorflow.js";

const announceParentExit = (parentPid: number) => console.error(`rllm: the process that started this server (pid ${parentPid}) is gone: stopping`);

/** Serves the tiny model or the rerank server, as the flags say, until Ctrl-C, SIGTERM or its parent's exit. */
export async function serveAction(flags: ServeFlags): Promise<void> {
  // Refused, not ignored: each would otherwise start a server on another model than the one the flag names.
  if (flags.modelFile !== undefined && (flags.tinker || flags.rerank !== undefined || flags.model === "tiny")) {
    throw new InputError("--model-file serves a GGUF with llama.cpp: give it without --tinker, --rerank and --model tiny (--tinker trains a pulled model: --base-model <name>)");
  }
  if (flags.baseModel !== undefined && !flags.tinker) throw new InputError("--base-model is the model --tinker trains: give it with --tinker (to serve a model: --model <name>)");
  if (flags.tinker) return serveTinker(flags);
  if (flags.rerank === undefined && flags.model === "tiny") return serveTiny(flags);
  if (flags.rerank === undefined && (flags.modelFile !== undefined || (flags.model !== undefined && isKnownModel(flags.model)))) return serveLlamaCpp(flags);
  if (flags.rerank === undefined) throw new InputError("rllm serve: give --model tiny, a pulled model (--model <name>, rllm models list), --model-file <path.gguf>, or --rerank <method> --upstream <url>");
  await serveRerank(flags, flags.rerank);
}

/** Serves the embedded tiny model (OpenAI-compatible, vLLM extensions) until Ctrl-C, SIGTERM or its parent's exit. */
async function serveTiny(flags: ServeFlags): Promise<void> {
  if (flags.checkpoint) assertCheckpointDirectory("--checkpoint", flags.checkpoint);
  if (flags.checkpoint) warnIfTrainedOnTest(flags.checkpoint);
  // Imported here, not at the top: the tiny model brings TensorFlow, which `rllm serve --help` must not load.
  const { startTinyServer } = await needsTensorflow(() => import("../../models/tiny/server.js"));
  const server = await startTinyServer({ port: flags.port, host: flags.host, checkpointDir: flags.checkpoint });
  console.error(`rllm: tiny model at ${server.url}/v1 (model "tiny", context ${server.model.config.contextLength} tokens)`);
  await waitForStop(announceParentExit);
  await server.close();
}

/** Serves a GGUF with llama.cpp (OpenAI-compatible, vLLM extensions) until Ctrl-C, SIGTERM or its parent's exit. */
async function serveLlamaCpp(flags: ServeFlags): Promise<void> {
  const plan = planEndpoint({ model: flags.model, modelFile: flags.modelFile, threads: flags.threads });
  if (!("modelFile" in plan)) throw new InputError("rllm serve: --model-file or a pulled --model names the GGUF to serve");
  const { startLlamaCppServer } = await import("../../models/llama-cpp/llama-cpp-server.js");
  const server = await startLlamaCppServer({ file: plan.modelFile, name: plan.model, port: flags.port, host: flags.host, threads: plan.threads });
  console.error(
    `rllm: ${plan.model} (llama.cpp, ${server.threads} thread${server.threads === 1 ? "" : "s"}, context ${server.model.contextSize} tokens per sequence) at ${server.url}/v1`,
  );
  await waitForStop(announceParentExit);
  await server.close();
}

/** Serves the local Tinker server (a development tool) until Ctrl-C, SIGTERM or its parent's exit. */
async function serveTinker(flags: ServeFlags): Promise<void> {
  if (flags.checkpoint) assertCheckpointDirectory("--checkpoint", flags.checkpoint);
  if (flags.checkpoint && flags.baseModel) throw new InputError("--checkpoint is a tiny-model checkpoint: give it without --base-model");
  const { startLocalTinkerServer } = await needsTensorflow(() => import("../../tinker-server/local-tinker-server.js"));
  const { parseFaultPlan } = await import("../../tinker-server/server-faults.js");
  let faults: ReturnType<typeof parseFaultPlan>;
  try {
    faults = parseFaultPlan(flags.faults ?? process.env.RLLM_TINKER_FAULTS);
  } catch (error) {
    throw new InputError(`--faults: ${(error as Error).message}`);
  }
  const base = flags.baseModel === undefined ? undefined : await loadTinkerBaseModel(flags.baseModel, flags);
  const server = await startLocalTinkerServer({
    port: flags.port,
    host: flags.host,
    checkpoint: flags.checkpoint,
    ...(base ? { base } : {}),
    faults,
    maxChunkDatums: flags.maxChunkDatums,
    maxChunkBytes: flags.maxChunkBytes,
    compress: flags.zstd,
    // Set in the server's environment, TINKER_API_KEY is the one key it accepts (as the service accepts only yours).
    apiKey: process.env.TINKER_API_KEY || undefined,
  });
  console.error(`rllm: local Tinker server (development tool) at ${server.url}, model "${server.model}"; rllm train <cookbook> --backend tinker --base-url ${server.url}`);
  await waitForStop(announceParentExit);
  await server.close();
}

/** A pulled GGUF as the Tinker server's base model: the torch worker and llama.cpp, both loaded before the server listens. */
async function loadTinkerBaseModel(name: string, flags: ServeFlags) {
  const home = rllmHome();
  const file = pulledModelFile(name, home).path;
  const python = flags.python ?? (process.env.RLLM_TORCH_PYTHON || "python3");
  const threads = threadCount(flags.threads);
  const { loadGgufBaseModel } = await import("../../tinker-server/gguf-base-model.js");
  try {
    return await loadGgufBaseModel({ name, file, tokenizerId: knownModel(name).huggingFaceId, tokenizerDirectory: path.join(modelDirectory(home, name), "tokenizer"), python, threads });
  } catch (error) {
    throw new InputError(
      `--base-model ${name}: the torch worker could not load it (${(error as Error).message.split("\n").at(-1)}); it needs a Python with torch, ` +
        "transformers 5.10.4, peft 0.21.2 and gguf 0.19.0: --python <command> (scripts/python-env.sh ml prints one)",
    );
  }
}

/** Runs the rerank server until Ctrl-C, SIGTERM or its parent's exit. */
async function serveRerank(flags: ServeFlags, method: SelectionMethod): Promise<void> {
  if (!flags.upstream) throw new InputError("--rerank needs --upstream <url> (the endpoint that generates and judges)");
  if (!flags.model) throw new InputError("--rerank needs --model <name> (the model the upstream serves)");
  const serverBudget = Math.round(flags.budget * flags.n);
  if (serverBudget > flags.maxCalls) throw new InputError(`--budget ${flags.budget} × -n ${flags.n} is ${serverBudget} judge calls a request, more than --max-calls ${flags.maxCalls}: lower one or raise --max-calls`);
  const server = await startRerankServer({
    upstream: flags.upstream,
    model: flags.model,
    apiKey: process.env[flags.apiKeyEnv],
    n: flags.n,
    budget: flags.budget,
    maxCalls: flags.maxCalls,
    method,
    judgeKind: flags.judgeKind,
    port: flags.port,
    host: flags.host,
    seed: flags.seed,
  });
  console.error(`rllm: reranking server at ${server.url} (${method}, n ${flags.n}, budget ${flags.budget}×n, at most ${flags.maxCalls} judge calls a request, upstream ${flags.upstream})`);
  await waitForStop(announceParentExit);
  await server.close();
}

// A checkpoint of `rllm sft` on rows from a test-split eval: its run's config.json (two folders up) says so.
function warnIfTrainedOnTest(checkpoint: string): void {
  const configFile = path.join(checkpoint, "..", "..", "config.json");
  if (!existsSync(configFile)) return;
  const trainedOn = readTrainedOn(configFile);
  if (!trainedOn) return;
  console.error(
    `rllm: warning: this checkpoint was trained on rows from the ${trainedOn.splits.join(", ")} split of ${trainedOn.benchmark ?? "its benchmark"}: ` +
      "an rllm eval of it on that split is contaminated",
  );
}
