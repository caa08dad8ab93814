/**
 * The local backend's learner thread: holds a LocalLearner (tfjs) and answers its calls, one at a time, so an update
 * runs while the main thread goes on driving rollouts. Messages in: {id, method, argument}; out: {id, result} or
 * {id, error}.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { TinyModelConfig } from "../../models/tiny/model-config.js";
import type { ModelWeights } from "../../models/tiny/model-weights.js";
import type { LearnerState } from "../../models/tiny/trainable-model.js";
import type { BatchSequence, TrainBatch } from "../backend.js";
import { LocalLearner } from "./local-learner.js";

/** What the thread is started with (workerData.data). */
export interface LearnerWorkerData {
  config: TinyModelConfig;
  weights: ModelWeights;
  microBatchPositions?: number;
}

/** The learner's calls, by method: what each takes and gives. */
export interface LearnerCalls {
  train: { argument: TrainBatch; result: Awaited<ReturnType<LocalLearner["train"]>> };
  forward: { argument: readonly BatchSequence[]; result: { loss: number; tokens: number } };
  state: { argument: null; result: LearnerState };
  restoreState: { argument: LearnerState; result: null };
  weights: { argument: null; result: ModelWeights };
}

/** A call to the thread. */
export type LearnerRequest = { [Method in keyof LearnerCalls]: { id: number; method: Method; argument: LearnerCalls[Method]["argument"] } }[keyof LearnerCalls];

/** An answer from the thread (id 0: the learner is ready, or could not start). */
export type LearnerReply = { id: number; result: unknown } | { id: number; error: string };

const data = (workerData as { data: LearnerWorkerData }).data;
const port = parentPort!;
try {
  const learner = await LocalLearner.create(data.config, data.weights, data.microBatchPositions);
  const answer = (request: LearnerRequest): unknown => {
    switch (request.method) {
      case "train":
        return learner.train(request.argument);
      case "forward":
        return learner.forward(request.argument);
      case "state":
        return learner.state();
      case "weights":
        return learner.weights();
      case "restoreState":
        learner.restoreState(request.argument);
        return null;
    }
  };
  port.on("message", (request: LearnerRequest) => {
    try {
      port.postMessage({ id: request.id, result: answer(request) } satisfies LearnerReply);
    } catch (error) {
      port.postMessage({ id: request.id, error: (error as Error).stack ?? String(error) } satisfies LearnerReply);
    }
  });
  port.postMessage({ id: 0, result: null } satisfies LearnerReply);
} catch (error) {
  port.postMessage({ id: 0, error: (error as Error).stack ?? String(error) } satisfies LearnerReply);
}
