/**
 * A Fireworks trainer job's life (fireworks-ai 1.2.30's TrainerJobManager): the account behind the key, create, wait
 * until JOB_STATE_RUNNING and the gateway's healthz answers (a notice per state change, a timeout), delete. `--resume`
 * starts a new job rather than resuming the killed run's (docs/fireworks.md).
 */
import { z } from "zod";
import { FireworksNotReadyError } from "./fireworks-errors.js";
import type { FireworksRestClient } from "./fireworks-rest-client.js";
import { trainerJobPayload, trainerJobQuery, type TrainerJobSettings } from "./trainer-job-settings.js";

const AccountsSchema = z.object({ accounts: z.array(z.object({ name: z.string() })).nullish() });
const JobSchema = z
  .object({
    name: z.string(),
    state: z.string().default(""),
    status: z.object({ message: z.string().nullish() }).nullish(),
    trainingConfig: z.object({ maxContextLength: z.number().int().nullish() }).nullish(),
  })
  .passthrough();

// States a trainer never leaves on its own (the SDK's _TRAINER_STOPPED_STATES, tombstones and FAILED).
const STOPPED_STATES = new Set(["JOB_STATE_FAILED", "JOB_STATE_CANCELLING", "JOB_STATE_CANCELLED", "JOB_STATE_COMPLETED", "JOB_STATE_EARLY_STOPPED", "JOB_STATE_DELETING", "JOB_STATE_DELETED", "JOB_STATE_ARCHIVED"]);

/** A running trainer job: where its gateway is and the context length it was given. */
export interface RunningTrainerJob {
  account: string;
  jobId: string;
  /** `{gateway}/training/v1/rlorTrainerJobs/{account}/{jobId}`: the Tinker-wire base the training client talks to. */
  gatewayUrl: string;
  maxContext: number;
}

/** How often to look, and how long to wait (each phase's limit, from the SDK's _constants.py and deployment.py). */
export interface ReadyWait {
  pollMs: number;
  /** A trainer job waiting for capacity (JOB_STATE_PENDING): DEFAULT_TRAINER_PENDING_TIMEOUT_S, 48 h. */
  pendingTimeoutMs: number;
  /** A placed trainer job until it runs: TRAINER_READY_TIMEOUT_S, 15 min. */
  readyTimeoutMs: number;
  /** A deployment until READY: DEPLOYMENT_READY_DEFAULT_TIMEOUT_S, 10 min; a hot load until served: HOTLOAD_WAIT_TIMEOUT_S, 400 s. */
  deploymentTimeoutMs: number;
  hotLoadTimeoutMs: number;
  notify: (message: string) => void;
  sleep?: (milliseconds: number) => Promise<void>;
  now?: () => number;
}

/** The only account the key reaches (the SDK refuses keys with none or several). */
export async function resolveAccount(client: FireworksRestClient): Promise<string> {
  const { accounts } = AccountsSchema.parse(await client.request("/v1/accounts?pageSize=2"));
  if (!accounts?.length) throw new Error("FIREWORKS_API_KEY is not associated with any Fireworks account");
  if (accounts.length > 1) throw new Error(`FIREWORKS_API_KEY reaches several accounts (${accounts.map((account) => account.name).join(", ")}); training needs a key of one account`);
  return accounts[0]!.name.replace(/^accounts\//, "");
}

/** Creates the job under `jobId` and answers once it is running. */
export async function createTrainerJob(client: FireworksRestClient, account: string, jobId: string, settings: TrainerJobSettings, wait: ReadyWait): Promise<RunningTrainerJob> {
  await client.request(`/v1/accounts/${account}/rlorTrainerJobs?${trainerJobQuery(jobId)}`, { method: "POST", body: trainerJobPayload(settings) });
  wait.notify(`Fireworks: created trainer job ${jobId}; waiting for it to run`);
  return waitUntilRunning(client, account, jobId, wait);
}

/** The job's state, or undefined when it no longer exists. */
export async function trainerJobState(client: FireworksRestClient, account: string, jobId: string): Promise<string | undefined> {
  const reply = await client.request(`/v1/accounts/${account}/rlorTrainerJobs/${jobId}`, { absentOn: [404] });
  return reply === undefined ? undefined : JobSchema.parse(reply).state;
}

/** Deletes the job (a 404 means it is already gone). */
export async function deleteTrainerJob(client: FireworksRestClient, account: string, jobId: string): Promise<void> {
  await client.request(`/v1/accounts/${account}/rlorTrainerJobs/${jobId}`, { method: "DELETE", absentOn: [404] });
}

/** Polls the job until RUNNING with a healthy gateway; a stopped state or the timeout is a FireworksNotReadyError. */
async function waitUntilRunning(client: FireworksRestClient, account: string, jobId: string, wait: ReadyWait): Promise<RunningTrainerJob> {
  const sleep = wait.sleep ?? ((milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds)));
  const now = wait.now ?? Date.now;
  const started = now();
  const gatewayUrl = `${client.baseUrl}/training/v1/rlorTrainerJobs/${account}/${jobId}`;
  let lastState = "";
  // Capacity may take long; once placed, the job must run within the ready limit (the SDK's two clocks).
  let placedAt: number | undefined;
  for (;;) {
    const job = JobSchema.parse(await client.request(`/v1/accounts/${account}/rlorTrainerJobs/${jobId}`));
    const detail = job.status?.message ?? "";
    if (STOPPED_STATES.has(job.state)) throw new FireworksNotReadyError(`trainer job ${jobId}`, job.state, detail || "the control plane gave no detail");
    if (job.state === "JOB_STATE_RUNNING" && (await client.request(`/training/v1/rlorTrainerJobs/${account}/${jobId}/api/v1/healthz`, { bearer: true, absentOn: [404, 502, 503] })) !== undefined) {
      return { account, jobId, gatewayUrl, maxContext: job.trainingConfig?.maxContextLength ?? 0 };
    }
    if (job.state !== lastState) {
      wait.notify(`Fireworks: trainer job ${jobId} is ${job.state || "(no state yet)"}${detail ? `: ${detail}` : ""} (${Math.round((now() - started) / 1000)} s)`);
      lastState = job.state;
    }
    if (job.state === "JOB_STATE_PENDING") {
      if (now() - started > wait.pendingTimeoutMs) throw new FireworksNotReadyError(`trainer job ${jobId}`, job.state, `no capacity after ${Math.round(wait.pendingTimeoutMs / 1000)} s`);
    } else {
      placedAt ??= now();
      if (now() - placedAt > wait.readyTimeoutMs) throw new FireworksNotReadyError(`trainer job ${jobId}`, job.state, `not running ${Math.round(wait.readyTimeoutMs / 1000)} s after placement`);
    }
    await sleep(wait.pollMs);
  }
}
