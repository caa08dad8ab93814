/**
 * A Tinker policy opened for sampling only (`rllm eval --backend tinker --model <base model or tinker:// sampler path>`):
 * a session with its heartbeat, a sampling session on the model or path, and the OpenAI chat endpoint over it.
 */
import { z } from "zod";
import type { ChatRenderer } from "./chat-renderer.js";
import { fetchSupportedModels } from "./client-config.js";
import { startChatServer } from "./tinker-chat-server.js";
import { TinkerHttpError } from "./tinker-errors.js";
import type { TinkerHttpClient } from "./tinker-http-client.js";
import { createTinkerSampler } from "./tinker-sampler.js";
import { openSession } from "./tinker-session.js";

const InfoReplySchema = z.object({ model_data: z.object({ tokenizer_id: z.string().nullish(), model_name: z.string().nullish() }) });

/** An open policy: an OpenAI base URL (ending in /v1) and the model name it answers to. */
export interface TinkerPolicyEndpoint {
  baseUrl: string;
  model: string;
  close(): Promise<void>;
}

/** Opens `model`: a supported base model, or a tinker://<model_id>/sampler_weights/<name> path (its tokenizer from get_info). */
export async function openTinkerPolicy(options: {
  client: TinkerHttpClient;
  model: string;
  loadRenderer(tokenizerId: string): Promise<ChatRenderer>;
  notify: (message: string) => void;
}): Promise<TinkerPolicyEndpoint> {
  const { client, model } = options;
  const models = await fetchSupportedModels(client);
  let tokenizerId = model;
  let maxContext: number;
  if (model.startsWith("tinker://")) {
    const modelId = model.slice("tinker://".length).split("/")[0]!;
    // A path outlives its training model; once that is unloaded, a server with one base model still says which.
    const info = await client
      .request("get_info", { json: { model_id: modelId, type: "get_info" } })
      .then((reply) => InfoReplySchema.parse(reply.json).model_data)
      .catch((error: unknown) => {
        if (!(error instanceof TinkerHttpError && error.status === 404) || models.length !== 1) throw error;
        return { tokenizer_id: models[0]!.name, model_name: models[0]!.name };
      });
    tokenizerId = info.tokenizer_id ?? info.model_name ?? model;
    maxContext = models.find((entry) => entry.name === info.model_name)?.maxContext ?? Math.max(0, ...models.map((entry) => entry.maxContext));
  } else {
    const supported = models.find((entry) => entry.name === model);
    if (!supported) throw new Error(`Tinker does not serve "${model}". Supported: ${models.map((entry) => entry.name).join(", ")}.`);
    maxContext = supported.maxContext;
  }
  const renderer = await options.loadRenderer(tokenizerId);
  const session = await openSession(client, { notify: options.notify });
  try {
    const sampler = await createTinkerSampler(client, { sessionId: session.id, samplingSessionSeqId: 0, source: model, version: 0 });
    const chat = await startChatServer({ renderer, sampler: () => sampler, modelName: model, maxContext });
    return {
      baseUrl: chat.baseUrl,
      model,
      async close() {
        session.close();
        await chat.close();
      },
    };
  } catch (error) {
    session.close();
    throw error;
  }
}
