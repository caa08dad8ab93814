// The local Tinker server's close releases its base model (for a GGUF: the llama.cpp contexts, the weights, the torch
// worker and the adapter folder) even when a model's learner cannot be released: a worker that died mid-run must not
// leave the rest loaded.
import { describe, expect, it } from "vitest";
import { startLocalTinkerServer } from "../../src/tinker-server/local-tinker-server.js";
import type { TinkerBaseModel, TinkerLearner } from "../../src/tinker-server/tinker-base-model.js";

function baseWithFailingLearner(closed: string[]): TinkerBaseModel {
  const learner = { dispose: async () => Promise.reject(new Error("the torch worker exited")) } as unknown as TinkerLearner;
  return {
    name: "stand-in",
    contextLength: 64,
    vocabularySize: 16,
    info: { arch: "stand-in", tokenizerId: "stand-in", isLora: true, note: "" },
    baseSamplerWeights: {},
    sampling: {} as TinkerBaseModel["sampling"],
    createLearner: async () => learner,
    close: async () => {
      closed.push("base");
    },
  };
}

async function post(url: string, route: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}/api/v1/${route}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": "tml-test" }, body: JSON.stringify(body) });
  return (await response.json()) as Record<string, unknown>;
}

describe("local Tinker server close", () => {
  it("closes the base model when a learner fails to dispose, and reports the learner's failure", async () => {
    const closed: string[] = [];
    const server = await startLocalTinkerServer({ base: baseWithFailingLearner(closed) });
    const { session_id } = await post(server.url, "create_session", { type: "create_session" });
    const { request_id } = await post(server.url, "create_model", { session_id, model_seq_id: 0, base_model: "stand-in", lora_config: { rank: 4 } });
    let created: Record<string, unknown> = {};
    for (let attempt = 0; attempt < 100 && created.model_id === undefined; attempt++) created = await post(server.url, "retrieve_future", { request_id });
    expect(created.model_id).toBeDefined();
    await expect(server.close()).rejects.toThrow("the torch worker exited");
    expect(closed).toEqual(["base"]);
  });
});
