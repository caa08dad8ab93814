/** The server's client flags (POST /client/config) and supported models (GET /get_server_capabilities), parsed to what the client uses. */
import { z } from "zod";
import type { TinkerHttpClient } from "./tinker-http-client.js";
import type { ChunkLimits } from "./request-chunks.js";

// Only the fields the client reads; the SDK's defaults where the server leaves one out.
const ClientConfigSchema = z.object({
  proto_compress_fwdbwd: z.boolean().default(false),
  fwdbwd_max_chunk_len: z.number().int().positive().default(1024),
  fwdbwd_max_chunk_bytes_count: z.number().int().positive().default(5_000_000),
  parallel_fwdbwd_chunks: z.boolean().default(false),
});

const CapabilitiesSchema = z.object({
  supported_models: z.array(z.object({ model_name: z.string(), max_context_length: z.number().int().positive().nullish() })),
});

/** What the client takes from the server's config. */
export interface ClientConfig {
  limits: ChunkLimits;
  compress: boolean;
  parallelChunks: boolean;
}

/** Reads the client config. */
export async function fetchClientConfig(client: TinkerHttpClient): Promise<ClientConfig> {
  const reply = ClientConfigSchema.parse((await client.request("client/config", { json: { sdk_version: "rllm-ts" } })).json ?? {});
  return {
    limits: { maxDatums: reply.fwdbwd_max_chunk_len, maxBytes: reply.fwdbwd_max_chunk_bytes_count },
    compress: reply.proto_compress_fwdbwd,
    parallelChunks: reply.parallel_fwdbwd_chunks,
  };
}

/** A supported base model and its context length (0 when the server does not say). */
export interface SupportedModel {
  name: string;
  maxContext: number;
}

/** Reads the supported base models. */
export async function fetchSupportedModels(client: TinkerHttpClient): Promise<SupportedModel[]> {
  const reply = CapabilitiesSchema.parse((await client.request("get_server_capabilities", undefined, { method: "GET" })).json);
  return reply.supported_models.map((model) => ({ name: model.model_name, maxContext: model.max_context_length ?? 0 }));
}
