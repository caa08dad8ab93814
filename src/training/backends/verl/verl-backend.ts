/**
 * The verl TrainingBackend (design b: rllm-ts owns the loop). rllm-ts runs the flows against verl's rollout servers
 * through a router, and hands each step's rows (solver and judge together, advantages already weighted by λ) to the
 * verl trainer in the Ray job through the batch service; the trainer recomputes old and reference logprobs, updates
 * the actor, syncs the weights to the rollout servers and reports the step's metrics.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import {
  assertBatchSupported,
  LossAggregationSchema,
  type BackendCapabilities,
  type PolicyRef,
  type SampleResult,
  type StepStatus,
  type TrainBatch,
  type TrainingBackend,
} from "../../backend.js";
import { UnsupportedRequestError } from "../../errors/unsupported-request-error.js";
import { startRolloutRouter, type RolloutRouter } from "./rollout-router.js";
import { isTerminal, RayJobsClient } from "./ray-jobs-client.js";
import { toBridgeRows } from "./to-bridge-rows.js";
import { assertMatchesActor, VERL_LOSSES } from "./verl-actor-settings.js";
import { startVerlBatchService, type VerlBatchService } from "./verl-batch-service.js";
import { TrainMetricsSchema, type RegisterRequest, type WorkResult } from "./verl-bridge-protocol.js";

export interface VerlBackendOptions {
  /** Where the batch service listens for the trainer. */
  host: string;
  port: number;
  /** Bearer token the trainer must send (recommended whenever host is not 127.0.0.1). */
  token?: string;
  /** How long `open` waits for the trainer to register (a Ray job takes minutes to start). */
  registerTimeoutMs: number;
  /** How long a rollout request waits while verl's servers are paused. */
  pauseToleranceMs: number;
  /** Longest prompt + response a row may have (the job's own limits are checked per row). */
  maxContext: number;
  /** How long `close` waits for the trainer to take the stop request. */
  stopTimeoutMs?: number;
  /** The Ray dashboard (RAY_ADDRESS): the trainer's job is watched there while a step waits. */
  rayAddress?: string;
  rayToken?: string;
  /** One line at a time about what the backend waits for (the CLI prints them). */
  onProgress?: (line: string) => void;
  /** Least time between two progress lines (and job checks) while a step waits; default 15 s. */
  progressEveryMs?: number;
}

/** Written by `checkpoint` beside the run's checkpoints; `restore` reads it. */
const CheckpointRecordSchema = z.object({ globalStep: z.number().int(), verlPath: z.string(), policyVersion: z.number().int() });
const CHECKPOINT_FILE = "verl-checkpoint.json";

/** The verl backend: a batch service for the trainer and a router in front of its rollout servers. */
export class VerlTrainingBackend implements TrainingBackend {
  readonly name = "verl";
  private service: VerlBatchService | undefined;
  private router: RolloutRouter | undefined;
  private trainer: RegisterRequest | undefined;
  private version = 0;
  private readonly steps = new Map<string, StepEntry>();
  private stepCount = 0;
  private lastProgress = 0;

  constructor(private readonly options: VerlBackendOptions) {}

  capabilities(): BackendCapabilities {
    return {
      name: this.name,
      // verl's policy losses that the project also computes (vanilla is ppo), checked against each other.
      losses: VERL_LOSSES,
      // Every agg_loss mode of verl 0.9 ("sum" is its token-sum).
      lossAggregations: LossAggregationSchema.options,
      merges: ["prefix", "per_call"],
      sampling: "openai",
      fullFineTune: true,
      lora: true,
      maxContext: this.options.maxContext,
      checkpoints: true,
      referenceKl: true,
      entropySelection: false,
      dualClip: true,
      truncatedImportanceSampling: true,
      // verl syncs the new weights into the same rollout servers, so an episode in flight across an update goes on
      // with the new weights: partial rollouts are the only honest async mode.
      asyncRollouts: "newest",
      // The actor's mini-batching and AdamW betas/epsilon are fixed when the job starts; only these values are honoured.
      fixedOptions: { substeps: 1, "optimizer.beta1": 0.9, "optimizer.beta2": 0.999, "optimizer.epsilon": 1e-8 },
    };
  }

  /** The batch service's URL, for the trainer's `rllm.bridge_url` (the service starts on first use). */
  async bridgeUrl(): Promise<string> {
    this.service ??= await startVerlBatchService({
      host: this.options.host,
      port: this.options.port,
      token: this.options.token,
      onRegister: (trainer) => this.router?.setServers(trainer.serverAddresses),
    });
    return this.service.url;
  }

  async open(): Promise<PolicyRef> {
    await this.bridgeUrl();
    await this.connectTrainer();
    return this.policy();
  }

  async sample(): Promise<SampleResult> {
    throw new UnsupportedRequestError(this.name, "sampling", "token-in/token-out", ["the OpenAI-compatible URL of the policy (openaiBaseUrl)"]);
  }

  async submit(batch: TrainBatch): Promise<{ stepId: string }> {
    const capabilities = this.capabilities();
    assertBatchSupported(capabilities, batch);
    const trainer = await this.connectTrainer();
    assertMatchesActor(this.name, batch, trainer.settings);
    const { rows, droppedOverlong } = toBridgeRows(batch.sequences, trainer);
    this.stepCount += 1;
    const stepId = `step-${this.stepCount}`;
    const entry: StepEntry = { droppedOverlong, step: this.stepCount, reward: meanReward(rows) };
    this.progress(`step ${this.stepCount}: ${rows.length} rows sent to ${this.jobLabel(trainer)} (mean reward ${entry.reward.toFixed(3)})`);
    this.steps.set(stepId, entry);
    void this.service!.enqueue({ kind: "train", policyVersion: this.version, rows }).then((result) => {
      entry.result = result;
    });
    return { stepId };
  }

  async status(stepId: string): Promise<StepStatus> {
    const entry = this.steps.get(stepId);
    if (!entry) return { state: "failed", metrics: {}, error: `no step ${stepId}` };
    const result = entry.result ?? (await this.watchJob(entry));
    if (!result) return { state: "running", metrics: {} };
    if (result.state === "failed") return { state: "failed", metrics: result.metrics, error: result.error ?? "the verl trainer gave no reason" };
    const metrics = TrainMetricsSchema.safeParse(result.metrics);
    if (!metrics.success) return { state: "failed", metrics: result.metrics, error: `the verl trainer's metrics lack loss or logprobMismatchMean` };
    return { state: "done", metrics: { ...result.metrics, droppedOverlongRows: entry.droppedOverlong } };
  }

  /** The trainer synced the weights to the rollout servers before reporting the step, so publishing only counts. */
  async publish(): Promise<PolicyRef> {
    this.version += 1;
    return this.policy();
  }

  async checkpoint(directory: string): Promise<{ path: string }> {
    await this.connectTrainer();
    const result = await this.service!.enqueue({ kind: "checkpoint" });
    if (result.state === "failed" || !result.checkpointPath) throw new Error(`verl trainer could not save a checkpoint: ${result.error ?? "no checkpoint path returned"}`);
    mkdirSync(directory, { recursive: true });
    const record = { globalStep: result.globalStep, verlPath: result.checkpointPath, policyVersion: this.version };
    writeFileSync(path.join(directory, CHECKPOINT_FILE), JSON.stringify(record, null, 2) + "\n");
    return { path: directory };
  }

  /** Resumes a run: the (relaunched) job loads the checkpoint unless it already resumed from it on start. */
  async restore(directory: string): Promise<PolicyRef> {
    const file = path.join(directory, CHECKPOINT_FILE);
    const record = CheckpointRecordSchema.parse(JSON.parse(readFileSync(file, "utf8")));
    const trainer = await this.connectTrainer();
    if (trainer.globalStep !== record.globalStep) {
      const result = await this.service!.enqueue({ kind: "restore", path: record.verlPath });
      if (result.state === "failed") throw new Error(`${file}: verl trainer could not load ${record.verlPath}: ${result.error ?? "no reason given"}`);
      if (result.globalStep !== record.globalStep) throw new Error(`${file}: verl loaded ${record.verlPath} at global step ${result.globalStep}, expected ${record.globalStep}`);
    }
    this.version = record.policyVersion;
    return this.policy();
  }

  async close(): Promise<void> {
    if (this.service?.trainer()) {
      // Ask the trainer to finish; a trainer that is gone must not keep the command from exiting.
      const stopped = this.service.enqueue({ kind: "stop" });
      await Promise.race([stopped, new Promise((resolve) => setTimeout(resolve, this.options.stopTimeoutMs ?? 10_000).unref())]);
    }
    await this.router?.close();
    await this.service?.close();
  }

  // The current trainer; after a restart (new instance) the router follows its new rollout servers.
  private async connectTrainer(): Promise<RegisterRequest> {
    if (!this.service!.trainer()) {
      this.progress(`waiting up to ${this.options.registerTimeoutMs / 1000} s for a trainer to register at ${this.service!.url} (start one with rllm verl launch --bridge-url …)`);
    }
    const trainer = await this.service!.waitForTrainer(this.options.registerTimeoutMs);
    if (trainer !== this.trainer) {
      // One router URL for the whole run (the gateway keeps it), pointed at the current job's servers.
      if (this.router) this.router.setServers(trainer.serverAddresses);
      else this.router = await startRolloutRouter({ serverAddresses: trainer.serverAddresses, pauseToleranceMs: this.options.pauseToleranceMs, version: () => this.version });
      this.trainer = trainer;
      this.progress(`trainer registered: ${this.jobLabel(trainer)}, verl ${trainer.verlVersion ?? "unknown"}, model ${trainer.servedModel}, ${trainer.serverAddresses.length} rollout servers`);
    }
    return trainer;
  }

  // While a step waits: a progress line, and the Ray job's state when RAY_ADDRESS names its dashboard; a job that
  // ended fails the step with its status and message instead of leaving the run waiting on a trainer that is gone.
  private async watchJob(entry: StepEntry): Promise<WorkResult | undefined> {
    const now = Date.now();
    if (now - this.lastProgress < (this.options.progressEveryMs ?? 15_000)) return undefined;
    this.lastProgress = now;
    const jobId = this.trainer?.rayJobId;
    let jobState = "";
    if (jobId && this.options.rayAddress) {
      const client = new RayJobsClient({ address: this.options.rayAddress, ...(this.options.rayToken ? { token: this.options.rayToken } : {}), timeoutMs: 10_000 });
      const job = await client.status(jobId).catch((error: Error) => ({ status: undefined, message: error.message }));
      if (job.status && isTerminal(job.status)) {
        const error = `the Ray job ${jobId} on ${client.address} is ${job.status}${job.message ? `: ${job.message}` : ""} (its log: rllm verl logs ${jobId} --address ${client.address})`;
        return { instanceId: this.trainer!.instanceId, state: "failed", globalStep: this.trainer!.globalStep, metrics: {}, error };
      }
      jobState = job.status ? `, job ${job.status}` : `, job state unknown (${job.message})`;
    }
    this.progress(`step ${entry.step}: waiting for ${this.jobLabel(this.trainer!)}${jobState}; ${this.router?.inFlight() ?? 0} rollouts in flight; last reward ${entry.reward.toFixed(3)}`);
    return undefined;
  }

  private jobLabel(trainer: RegisterRequest): string {
    const where = this.options.rayAddress ?? "the Ray cluster (set RAY_ADDRESS to watch the job)";
    return `the verl trainer (Ray job ${trainer.rayJobId ?? "unknown"} on ${where}, global step ${trainer.globalStep})`;
  }

  private progress(line: string): void {
    this.options.onProgress?.(`verl: ${line}`);
  }

  private policy(): PolicyRef {
    return { backend: this.name, modelId: this.trainer!.servedModel, version: this.version, openaiBaseUrl: this.router!.baseUrl };
  }
}

/** A submitted step: the trainer's result once it came, and what the progress lines show while it waits. */
interface StepEntry {
  result?: WorkResult;
  droppedOverlong: number;
  step: number;
  reward: number;
}

function meanReward(rows: readonly { reward: number }[]): number {
  return rows.length === 0 ? 0 : rows.reduce((sum, row) => sum + row.reward, 0) / rows.length;
}
