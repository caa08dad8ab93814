/**
 * The Fireworks training backend: a trainer job (the control plane's RLOR job in service mode) trained through its
 * gateway on the Tinker wire in JSON (the Tinker backend's client, with its JSON seam), rollouts sampled from a
 * hot-load deployment that each published version is loaded onto, and the job and deployment deleted on close.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { InputError } from "../../../core/errors/input-error.js";
import { assertBatchSupported, LossAggregationSchema, type BackendCapabilities, type PolicyRef, type TrainingBackend } from "../../backend.js";
import type { ChatRenderer } from "../../../llm/tinker/chat-renderer.js";
import { createTinkerBackend } from "../tinker/tinker-backend.js";
import { TinkerHttpClient } from "../../../llm/tinker/tinker-http-client.js";
import type { FireworksRestClient } from "./fireworks-rest-client.js";
import { openRolloutDeployment, type RolloutDeployment } from "./rollout-deployment.js";
import { createTrainerJob, deleteTrainerJob, resolveAccount, trainerJobState, type ReadyWait, type RunningTrainerJob } from "./trainer-job-lifecycle.js";
import { TRAINER_DEFAULT_LEARNING_RATE } from "./trainer-job-settings.js";

/** What `rllm train --backend fireworks` can ask for: Tinker's client-side losses and scaling, LoRA only. */
export const FIREWORKS_CAPABILITIES: BackendCapabilities = {
  name: "fireworks",
  // The built-in losses of the SDK's LossFnType that rllm-ts has (dapo, gspo, dppo and reinforce it does not send).
  losses: ["importance_sampling", "ppo", "cispo", "dro", "cross_entropy"],
  // Aggregations are folded into the advantages client-side, as on Tinker (scaled-advantages.ts).
  lossAggregations: LossAggregationSchema.options,
  merges: ["prefix", "per_call"],
  sampling: "native",
  fullFineTune: false,
  lora: true,
  // Per base model: the job's trainingConfig.maxContextLength once it runs.
  maxContext: 0,
  checkpoints: true,
  referenceKl: false,
  entropySelection: false,
};

/** The file beside the Tinker checkpoint record that names the trainer job and deployment that wrote it. */
export const FIREWORKS_JOB_FILE = "fireworks-job.json";
const JobRecordSchema = z.object({ account: z.string(), jobId: z.string(), deploymentId: z.string() }).strict();

/** Everything the backend needs besides the request. */
export interface FireworksBackendOptions {
  control: FireworksRestClient;
  apiKey: () => string;
  loadRenderer(tokenizerId: string): Promise<ChatRenderer>;
  loraRank?: number;
  notify?: (message: string) => void;
  /** Poll interval (the SDK's POLL_INTERVAL_S, 5 s, by default). */
  pollMs?: number;
}

/** Creates the backend; nothing is sent until `open`. */
export function createFireworksBackend(options: FireworksBackendOptions): TrainingBackend {
  const notify = options.notify ?? ((message: string) => process.emitWarning(message));
  const wait: ReadyWait = { pollMs: options.pollMs ?? 5_000, pendingTimeoutMs: 48 * 3_600_000, readyTimeoutMs: 15 * 60_000, deploymentTimeoutMs: 600_000, hotLoadTimeoutMs: 400_000, notify };
  const capabilities: BackendCapabilities = { ...FIREWORKS_CAPABILITIES };
  let opened: { job: RunningTrainerJob; deployment: RolloutDeployment; trainer: TrainingBackend } | undefined;
  const current = () => {
    if (!opened) throw new Error("fireworks backend: call open() first");
    return opened;
  };
  const asFireworks = (ref: PolicyRef): PolicyRef => ({ ...ref, backend: "fireworks" });

  // Deletes the deployment and the job; what could not be deleted is said in one notice, since it keeps billing.
  async function release(job: { account: string; jobId: string }, deploymentId?: string): Promise<void> {
    const { account, jobId } = job;
    const left: string[] = [];
    let reason = "";
    if (deploymentId) {
      // DeploymentManager._delete_deployment: a hard delete that skips the checks a serving deployment would get.
      await options.control.request(`/v1/accounts/${account}/deployments/${deploymentId}?ignoreChecks=true&hard=true`, { method: "DELETE", absentOn: [404] }).catch((error: unknown) => {
        left.push(`deployment ${deploymentId}`);
        reason = (error as Error).message;
      });
    }
    await deleteTrainerJob(options.control, account, jobId).catch((error: unknown) => {
      left.push(`trainer job ${jobId}`);
      reason = (error as Error).message;
    });
    if (left.length > 0) notify(`Fireworks: could not delete ${left.join(" and ")} (${reason}); delete ${left.length > 1 ? "them" : "it"} in the Fireworks console`);
  }

  return {
    name: "fireworks",
    capabilities: () => capabilities,

    async open(request) {
      if (!request.baseModel) throw new InputError("--model: the Fireworks backend needs a base model (e.g. accounts/fireworks/models/qwen3-8b)");
      const account = await resolveAccount(options.control);
      // Client-chosen ids, as the SDK's: a retried create answers 409 and finds the same job.
      const suffix = randomBytes(4).toString("hex");
      const jobId = `rllm-ts-${suffix}`;
      const loraRank = request.loraRank ?? options.loraRank ?? 32;
      const job = await createTrainerJob(options.control, account, jobId, { baseModel: request.baseModel, loraRank, learningRate: TRAINER_DEFAULT_LEARNING_RATE, displayName: `rllm-ts ${jobId}` }, wait);
      let deployment: RolloutDeployment | undefined;
      try {
        capabilities.maxContext = job.maxContext;
        deployment = await openRolloutDeployment(options.control, { account, deploymentId: `rllm-ts-rollout-${suffix}`, baseModel: request.baseModel, trainerJobName: `accounts/${account}/rlorTrainerJobs/${jobId}` }, wait);
        const rollout = deployment;
        const client = new TinkerHttpClient({ baseUrl: job.gatewayUrl, credentials: options.apiKey, notify, service: { name: "Fireworks", keySource: "FIREWORKS_API_KEY" } });
        const trainer = createTinkerBackend({
          client,
          loadRenderer: options.loadRenderer,
          loraRank,
          notify,
          tinker023Wire: true,
          // Version 0 samples the base model as deployed; each later version is its sampler snapshot, hot-loaded.
          openSampler: async ({ source, version }) => {
            if (source !== request.baseModel) await rollout.hotLoad(source);
            return rollout.sampler(version, source);
          },
        });
        const policy = await trainer.open({ ...request, loraRank });
        opened = { job, deployment, trainer };
        return asFireworks(policy);
      } catch (error) {
        await release(job, deployment?.deploymentId);
        throw error;
      }
    },

    sample: (request) => current().trainer.sample(request),

    async submit(batch) {
      assertBatchSupported(capabilities, batch);
      return current().trainer.submit(batch);
    },

    async forward(batch) {
      assertBatchSupported(capabilities, batch);
      return current().trainer.forward!(batch);
    },

    status: (stepId) => current().trainer.status(stepId),

    publish: async () => asFireworks(await current().trainer.publish()),

    async checkpoint(directory) {
      const saved = await current().trainer.checkpoint(directory);
      const { job, deployment } = current();
      mkdirSync(directory, { recursive: true });
      writeFileSync(path.join(directory, FIREWORKS_JOB_FILE), `${JSON.stringify({ account: job.account, jobId: job.jobId, deploymentId: deployment.deploymentId }, null, 2)}\n`);
      return saved;
    },

    async restore(directory) {
      const policy = asFireworks(await current().trainer.restore(directory));
      // The run that wrote the checkpoint was killed before its close: its job and deployment may still be running
      // (and billing). The saved state now lives in this run's job, so they are deleted.
      const file = path.join(directory, FIREWORKS_JOB_FILE);
      const record = JobRecordSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
      if (!record.success) throw new Error(`${file}: ${record.error.issues.map((issue) => `field "${issue.path.join(".")}": ${issue.message}`).join("; ")}`);
      const earlier = record.data;
      if (earlier.jobId !== current().job.jobId && (await trainerJobState(options.control, earlier.account, earlier.jobId)) !== undefined) {
        notify(`Fireworks: deleting trainer job ${earlier.jobId} and deployment ${earlier.deploymentId}, left by the run that saved ${path.basename(directory)}`);
        await release(earlier, earlier.deploymentId);
      }
      return policy;
    },

    async close() {
      if (!opened) return;
      const { job, deployment, trainer } = opened;
      opened = undefined;
      await trainer.close();
      await release(job, deployment.deploymentId);
    },
  };
}
