/** The local backend's sampler: the embedded model's OpenAI-compatible server, switched to each published policy version in place. */
import type { ModelWeights } from "../../models/tiny/model-weights.js";
import { startTinyServer, TINY_MODEL_NAME } from "../../models/tiny/server.js";
import type { TinyModel } from "../../models/tiny/tiny-model.js";
import type { PolicySampler } from "./policy-sampler.js";

/** Serves `model` with `weights` on a free 127.0.0.1 port. */
export async function startTinySampler(model: TinyModel, weights: ModelWeights): Promise<PolicySampler> {
  model.publish(weights);
  const server = await startTinyServer({ port: 0, host: "127.0.0.1", model });
  return {
    baseUrl: `${server.url}/v1`,
    model: TINY_MODEL_NAME,
    update: async (next) => model.publish(next),
    close: () => server.close(),
  };
}
