/** Where model calls go: the --base-url endpoint, or the embedded tiny model served in-process on 127.0.0.1. */
import { InputError } from "../core/errors/input-error.js";

export interface Endpoint {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** True when this is the embedded model (so the caller can say so). */
  isEmbedded: boolean;
  close(): Promise<void>;
}

export interface EndpointFlags {
  baseUrl?: string;
  model?: string;
  apiKeyEnv: string;
}

/** Opens the endpoint the flags name; with no --base-url, starts the embedded model's OpenAI-compatible server. */
export async function resolveEndpoint(flags: EndpointFlags): Promise<Endpoint> {
  if (flags.baseUrl) {
    if (!flags.model) throw new InputError("--model is required with --base-url (the model name the endpoint serves)");
    const apiKey = process.env[flags.apiKeyEnv];
    return { baseUrl: flags.baseUrl, model: flags.model, apiKey, isEmbedded: false, close: async () => {} };
  }
  if (flags.model && flags.model !== "tiny") {
    throw new InputError(`--model ${flags.model} needs --base-url; without it the embedded model "tiny" is used`);
  }
  const { startTinyServer } = await import("../models/tiny/server.js");
  const server = await startTinyServer({ port: 0, host: "127.0.0.1" });
  return { baseUrl: `${server.url}/v1`, model: "tiny", isEmbedded: true, close: () => server.close() };
}
