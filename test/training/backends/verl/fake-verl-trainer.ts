/**
 * A fake of the verl trainer's side of the bridge protocol (what integrations/verl's BridgeTrainer does, minus verl):
 * it registers, pulls work until told to stop, records every item, answers train items with metrics and checkpoint
 * items with a path, and loads a checkpoint on restore by taking its step from the path.
 */
import { randomUUID } from "node:crypto";
import type { BridgeRow, TrainerSettings, WorkItem } from "../../../../src/training/backends/verl/verl-bridge-protocol.js";

export interface FakeTrainerOptions {
  bridgeUrl: string;
  token: string;
  serverAddress: string;
  settings: TrainerSettings;
  /** The step the job resumed at on start (a restarted job loads its latest checkpoint). */
  globalStep?: number;
  /** Dies (returns without answering, as a preempted job) on receiving its n-th train item (1-based). */
  dieAtTrainItem?: number;
}

export interface FakeTrainerRun {
  items: WorkItem[];
  batches: BridgeRow[][];
  globalStep: number;
}

/** Runs the fake until it receives stop, dies, or `signal` aborts; resolves with what it received. */
export async function runFakeTrainer(options: FakeTrainerOptions, signal: AbortSignal): Promise<FakeTrainerRun> {
  const instanceId = randomUUID();
  const headers = { authorization: `Bearer ${options.token}`, "content-type": "application/json" };
  const run: FakeTrainerRun = { items: [], batches: [], globalStep: options.globalStep ?? 0 };
  const registration = {
    instanceId,
    servedModel: "Qwen/Qwen3-0.6B",
    serverAddresses: [options.serverAddress],
    maxPromptLength: 4096,
    maxResponseLength: 4096,
    globalStep: run.globalStep,
    settings: options.settings,
  };
  // rllm train starts its batch service only after loading the benchmark: retry until it listens.
  for (;;) {
    if (signal.aborted) return run;
    try {
      const reply = await fetch(`${options.bridgeUrl}/bridge/v1/register`, { method: "POST", headers, body: JSON.stringify(registration) });
      if (reply.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const post = (id: string, body: Record<string, unknown>) =>
    fetch(`${options.bridgeUrl}/bridge/v1/results/${id}`, { method: "POST", headers, body: JSON.stringify({ instanceId, globalStep: run.globalStep, ...body }) });
  while (!signal.aborted) {
    const reply = await fetch(`${options.bridgeUrl}/bridge/v1/work?instanceId=${instanceId}&waitSeconds=1`, { headers });
    if (reply.status === 204) continue;
    if (!reply.ok) throw new Error(`fake trainer: work poll answered ${reply.status}: ${await reply.text()}`);
    const item = (await reply.json()) as WorkItem;
    run.items.push(item);
    if (item.kind === "train") {
      if (run.batches.length + 1 === options.dieAtTrainItem) return run;
      run.batches.push(item.rows);
      run.globalStep += 1;
      await post(item.id, { state: "done", metrics: { loss: 0.1 * run.globalStep, logprobMismatchMean: 0.001, "actor/pg_clipfrac": 0 } });
    } else if (item.kind === "checkpoint") {
      await post(item.id, { state: "done", checkpointPath: `/verl/checkpoints/global_step_${run.globalStep}` });
    } else if (item.kind === "restore") {
      run.globalStep = Number(/global_step_(\d+)$/.exec(item.path)?.[1]);
      await post(item.id, { state: "done" });
    } else {
      await post(item.id, { state: "done" });
      return run;
    }
  }
  return run;
}
