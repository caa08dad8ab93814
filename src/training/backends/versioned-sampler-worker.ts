/**
 * The local backend's sampler thread: runs the versioned tiny-model server (versioned-tiny-server.ts) off the main
 * thread, so sampling goes on while the learner (tfjs on the main thread) trains. Messages in: publish (a version's
 * weights), retain (versions to keep), close. Messages out: listening (the base URL), published, closed, failed.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { ModelWeights } from "../../models/tiny/model-weights.js";
import { TinyModel } from "../../models/tiny/tiny-model.js";
import { startVersionedTinyServer } from "./versioned-tiny-server.js";

/** What the thread is started with (workerData.data). */
export interface SamplerWorkerData {
  checkpointDirectory: string;
  version: number;
  weights: ModelWeights;
}

/** A message to the thread. */
export type SamplerWorkerRequest = { type: "publish"; version: number; weights: ModelWeights } | { type: "retain"; versions: number[] } | { type: "close" };

/** A message from the thread. */
export type SamplerWorkerReply = { type: "listening"; baseUrl: string } | { type: "published"; version: number } | { type: "closed" } | { type: "failed"; message: string };

const data = (workerData as { data: SamplerWorkerData }).data;
const port = parentPort!;
const modelWith = async (weights: ModelWeights) => {
  const model = await TinyModel.load(data.checkpointDirectory);
  model.publish(weights);
  return model;
};
const send = (reply: SamplerWorkerReply) => port.postMessage(reply);

try {
  const server = await startVersionedTinyServer(data.version, await modelWith(data.weights));
  port.on("message", (request: SamplerWorkerRequest) => {
    const work = async () => {
      if (request.type === "publish") {
        server.publish(request.version, await modelWith(request.weights));
        send({ type: "published", version: request.version });
      } else if (request.type === "retain") {
        server.retain(request.versions);
      } else {
        await server.close();
        send({ type: "closed" });
        port.close();
      }
    };
    work().catch((error: unknown) => send({ type: "failed", message: (error as Error).message }));
  });
  send({ type: "listening", baseUrl: server.baseUrl });
} catch (error) {
  send({ type: "failed", message: (error as Error).message });
}
