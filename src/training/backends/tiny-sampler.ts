/**
 * The local backend's sampler: the embedded model's OpenAI-compatible server on a thread of its own
 * (versioned-sampler-worker.ts), holding every policy version still in use, so rollouts sample while the learner trains.
 */
import type { Worker } from "node:worker_threads";
import { startTsWorker } from "../../core/worker.js";
import type { ModelWeights } from "../../models/tiny/model-weights.js";
import { TINY_MODEL_NAME } from "../../models/tiny/server.js";
import type { PolicySampler } from "./policy-sampler.js";
import type { SamplerWorkerData, SamplerWorkerReply, SamplerWorkerRequest } from "./versioned-sampler-worker.js";

/** Serves version 0 with `weights` (a model of the checkpoint in `checkpointDirectory`'s shape) on a free 127.0.0.1 port. */
export async function startTinySampler(checkpointDirectory: string, weights: ModelWeights): Promise<PolicySampler> {
  const data: SamplerWorkerData = { checkpointDirectory, version: 0, weights };
  const worker = startTsWorker(new URL("./versioned-sampler-worker.js", import.meta.url), data);
  const request = (message: SamplerWorkerRequest) => worker.postMessage(message);
  const listening = await nextReply(worker, (reply) => reply.type === "listening");
  if (listening.type !== "listening") throw new Error(`the sampler thread did not start: ${listening.type === "failed" ? listening.message : listening.type}`);
  return {
    baseUrl: listening.baseUrl,
    model: TINY_MODEL_NAME,
    async update(next, version = 0) {
      const published = nextReply(worker, (reply) => reply.type === "published" && reply.version === version);
      request({ type: "publish", version, weights: next });
      const reply = await published;
      if (reply.type === "failed") throw new Error(`the sampler thread could not load version ${version}: ${reply.message}`);
    },
    async retain(versions) {
      request({ type: "retain", versions: [...versions] });
    },
    async close() {
      const closed = nextReply(worker, (reply) => reply.type === "closed");
      request({ type: "close" });
      await closed;
      await worker.terminate();
    },
  };
}

// The next reply that `accepts`, or the first failure (a thread that dies is a failure too).
function nextReply(worker: Worker, accepts: (reply: SamplerWorkerReply) => boolean): Promise<SamplerWorkerReply> {
  return new Promise((resolve) => {
    const onMessage = (reply: SamplerWorkerReply) => {
      if (!accepts(reply) && reply.type !== "failed") return;
      worker.off("message", onMessage);
      worker.off("error", onError);
      resolve(reply);
    };
    const onError = (error: Error) => {
      worker.off("message", onMessage);
      resolve({ type: "failed", message: error.message });
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
  });
}
