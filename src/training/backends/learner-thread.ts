/** The local backend's side of the learner thread (local-learner-worker.ts): each call a message, answered in turn. */
import type { Worker } from "node:worker_threads";
import { startTsWorker } from "../../core/worker.js";
import type { LearnerCalls, LearnerReply, LearnerWorkerData } from "./local-learner-worker.js";

/** A running learner thread. */
export interface LearnerThread {
  call<Method extends keyof LearnerCalls>(method: Method, argument: LearnerCalls[Method]["argument"]): Promise<LearnerCalls[Method]["result"]>;
  close(): Promise<void>;
}

/** Starts the thread on `data`; resolves once its learner is ready. */
export async function startLearnerThread(data: LearnerWorkerData): Promise<LearnerThread> {
  const worker: Worker = startTsWorker(new URL("./local-learner-worker.js", import.meta.url), data);
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const failAll = (error: Error) => {
    for (const waiting of pending.values()) waiting.reject(error);
    pending.clear();
  };
  worker.on("message", (reply: LearnerReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if ("error" in reply) waiting.reject(new Error(`local learner: ${reply.error}`));
    else waiting.resolve(reply.result);
  });
  worker.on("error", (error) => failAll(new Error(`local learner thread failed: ${error.message}`)));
  worker.on("exit", (code) => failAll(new Error(`local learner thread exited (${code})`)));
  const ready = new Promise((resolve, reject) => pending.set(0, { resolve, reject }));
  await ready;
  return {
    call(method, argument) {
      const id = nextId++;
      const answered = new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
      worker.postMessage({ id, method, argument });
      return answered as Promise<LearnerCalls[typeof method]["result"]>;
    },
    async close() {
      await worker.terminate();
    },
  };
}
