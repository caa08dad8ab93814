/**
 * Where model calls go: the --base-url endpoint, or a model served in-process on 127.0.0.1: the embedded tiny model by
 * default, or a GGUF on llama.cpp (`--model <pulled name>`, `--model-file <path.gguf>`).
 */
import { InputError } from "../core/errors/input-error.js";
import { optionName, usageMessage } from "../core/errors/option-name.js";
import type { ModelPrice } from "../core/price-table.js";
import { rllmHome } from "../core/rllm-home.js";
import { namedEndpoint, readUserConfig } from "../core/user-config.js";
import { isKnownModel, localModelFile, pulledModelFile } from "../models/catalog/resolve-model-file.js";
import { needsTensorflow } from "../models/tiny/needs-tensorflow.js";

export interface Endpoint {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** True when this is the embedded model (so the caller can say so). */
  isEmbedded: boolean;
  close(): Promise<void>;
}

/** Where model calls go, as an eval's options (or a command's flags) name it. */
export interface EndpointOptions {
  endpoint?: string;
  baseUrl?: string;
  model?: string;
  apiKeyEnv?: string;
  /** A local GGUF to serve with llama.cpp. */
  modelFile?: string;
  /** llama.cpp's CPU threads (default: the cores the load average leaves free). */
  threads?: number;
}

const defaultKeyVariable = "OPENAI_API_KEY";

/** The endpoint the options name, checked but not yet opened: nothing is started until `openEndpoint`. */
export type EndpointPlan =
  | { isEmbedded: false; baseUrl: string; model: string; apiKey?: string; price?: ModelPrice }
  | { isEmbedded: true; model: "tiny" }
  /** A GGUF served by llama.cpp in this process. */
  | { isEmbedded: true; model: string; modelFile: string; threads?: number };

/** The endpoint of a run whose agent calls no model: `label` names the agent where a model name would go; a call fails. */
export function noModelEndpoint(label: string): Endpoint {
  return { baseUrl: "http://no-model.invalid/v1", model: label, isEmbedded: false, close: async () => {} };
}

/** Checks the endpoint options (a usage error naming them when they conflict) without starting anything. */
export function planEndpoint(options: EndpointOptions, home: string = rllmHome()): EndpointPlan {
  if (options.modelFile) {
    if (options.endpoint || options.baseUrl) {
      throw new InputError(usageMessage`${optionName("modelFile")} serves a local GGUF here: give it without ${optionName("endpoint")} and ${optionName("baseUrl")}`);
    }
    const file = localModelFile(options.modelFile);
    return { isEmbedded: true, model: options.model ?? file.name, modelFile: file.path, ...(options.threads ? { threads: options.threads } : {}) };
  }
  if (options.endpoint) {
    if (options.baseUrl || options.model) throw new InputError(usageMessage`${optionName("endpoint")} already names a base URL and model: give it without ${optionName("baseUrl")} and ${optionName("model")}`);
    const named = namedEndpoint(readUserConfig(home), options.endpoint, home);
    const keyVariable = options.apiKeyEnv ?? named.apiKeyEnv ?? defaultKeyVariable;
    return { isEmbedded: false, baseUrl: named.baseUrl, model: named.model, apiKey: process.env[keyVariable], ...(named.prices ? { price: named.prices } : {}) };
  }
  if (options.baseUrl) {
    if (!options.model) throw new InputError(usageMessage`${optionName("model")} is required with ${optionName("baseUrl")} (the model name the endpoint serves)`);
    return { isEmbedded: false, baseUrl: options.baseUrl, model: options.model, apiKey: process.env[options.apiKeyEnv ?? defaultKeyVariable] };
  }
  if (options.model && isKnownModel(options.model)) {
    return { isEmbedded: true, model: options.model, modelFile: pulledModelFile(options.model, home).path, ...(options.threads ? { threads: options.threads } : {}) };
  }
  if (options.model && options.model !== "tiny") {
    throw new InputError(
      usageMessage`${optionName("model")} ${options.model} needs ${optionName("baseUrl")}; without it the embedded model "tiny" is used, or a pulled model (rllm models list), or ${optionName("modelFile")} <path.gguf>`,
    );
  }
  return { isEmbedded: true, model: "tiny" };
}

/**
 * Opens a planned endpoint; for a model served here this starts its OpenAI-compatible server, which keeps the process
 * alive until `close()`: call it only after every usage check has passed, and close it in a `finally`.
 */
export async function openEndpoint(plan: EndpointPlan): Promise<Endpoint> {
  if (!plan.isEmbedded) return { ...plan, close: async () => {} };
  if ("modelFile" in plan) {
    // Imported here: node-llama-cpp is an optional dependency, loaded only when a GGUF runs.
    const { startLlamaCppServer } = await import("../models/llama-cpp/llama-cpp-server.js");
    const server = await startLlamaCppServer({ file: plan.modelFile, name: plan.model, port: 0, host: "127.0.0.1", threads: plan.threads });
    return { baseUrl: `${server.url}/v1`, model: plan.model, isEmbedded: true, close: () => server.close() };
  }
  const { startTinyServer } = await needsTensorflow(() => import("../models/tiny/server.js"));
  const server = await startTinyServer({ port: 0, host: "127.0.0.1" });
  return { baseUrl: `${server.url}/v1`, model: plan.model, isEmbedded: true, close: () => server.close() };
}
