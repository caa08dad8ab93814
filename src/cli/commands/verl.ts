/** `rllm verl launch | status | logs | stop`'s actions: the Ray Jobs REST API, with log streaming and status exit codes. */
import { describeIssues, InputError } from "../../core/errors/input-error.js";
import { parseJsonFile } from "../../core/parse-json-file.js";
import { isTerminal, RayDashboardUnreachableError, RayJobsClient, RayJobsError, type RayJobStatus } from "../../training/backends/verl/ray-jobs-client.js";
import { verlLaunchRequest } from "../../training/backends/verl/verl-launch-request.js";
import { TrainConfigSchema, type TrainConfig } from "../../training/train-config.js";
import { assertInputFile } from "../../core/check-paths.js";
import type { VerlLaunchFlags, VerlLogsFlags, VerlStatusFlags, VerlStopFlags } from "./verl-flags.js";
import { abortableSleep } from "../../core/abortable-sleep.js";

/** Submits the bridge trainer's job; with --follow, streams its logs and exits by its final status. */
export async function launchVerlJob(flags: VerlLaunchFlags): Promise<void> {
  const trainConfig = flags.trainConfig ? readTrainConfig(flags.trainConfig) : undefined;
  if (flags.workingDir && !/^[a-z][a-z0-9+.-]*:\/\//i.test(flags.workingDir)) {
    throw new InputError(`--working-dir ${flags.workingDir}: the Ray Jobs REST API takes a URI the cluster can fetch (gcs://, s3://, https://….zip), not a local folder; use --pip <path on the cluster> or a git URL for rllm_verl`);
  }
  const metadata = Object.fromEntries(flags.metadata.map((entry) => splitKeyValue("--metadata", entry)));
  for (const override of flags.set) splitKeyValue("--set", override);
  const bridgeToken = flags.bridgeToken ?? process.env.RLLM_VERL_BRIDGE_TOKEN;
  const request = verlLaunchRequest({
    bridgeUrl: flags.bridgeUrl,
    ...(bridgeToken ? { bridgeToken } : {}),
    model: flags.model,
    ...(trainConfig ? { trainConfig } : {}),
    overrides: flags.set,
    ...(flags.workingDir ? { workingDir: flags.workingDir } : {}),
    pip: flags.pip,
    uv: flags.uv,
    ...(flags.submissionId ? { submissionId: flags.submissionId } : {}),
    metadata,
    ...(flags.numGpus !== undefined ? { entrypointNumGpus: flags.numGpus } : {}),
  });
  const client = connect(flags);
  const jobId = await usage(client.submit(request));
  console.log(jobId);
  console.error(`rllm: submitted ${jobId} to ${client.address}; watch it with rllm verl logs ${jobId} --follow`);
  if (flags.follow) exitByStatus(jobId, await followLogs(client, jobId, flags.poll));
}

/** Prints the job's status; with --wait, polls until it ends. */
export async function verlJobStatus(flags: VerlStatusFlags, [jobId]: [string]): Promise<void> {
  const client = connect(flags);
  for (;;) {
    const { status, message } = await usage(client.status(jobId));
    console.log(`${jobId} ${status}${message ? `: ${message}` : ""}`);
    if (isTerminal(status)) return exitByStatus(jobId, status);
    if (!flags.wait) return;
    await abortableSleep(flags.poll * 1000);
  }
}

/** Prints the job's logs; with --follow, keeps printing new lines until it ends. */
export async function verlJobLogs(flags: VerlLogsFlags, [jobId]: [string]): Promise<void> {
  const client = connect(flags);
  if (!flags.follow) {
    process.stdout.write(await usage(client.logs(jobId)));
    return;
  }
  exitByStatus(jobId, await followLogs(client, jobId, flags.poll));
}

/** Asks Ray to stop the job. */
export async function stopVerlJob(flags: VerlStopFlags, [jobId]: [string]): Promise<void> {
  const client = connect(flags);
  const stopped = await usage(client.stop(jobId));
  console.log(stopped ? `${jobId} stopping` : `${jobId} had already ended`);
}

function connect(flags: { address?: string; token?: string }): RayJobsClient {
  const token = flags.token ?? process.env.RAY_JOBS_TOKEN;
  return new RayJobsClient({ address: flags.address ?? process.env.RAY_ADDRESS ?? "http://127.0.0.1:8265", ...(token ? { token } : {}) });
}

// The whole log is fetched each poll (the REST API has no offset); only what is new is printed.
async function followLogs(client: RayJobsClient, jobId: string, pollSeconds: number): Promise<RayJobStatus> {
  let printed = 0;
  for (;;) {
    const { status } = await usage(client.status(jobId));
    const logs = await usage(client.logs(jobId));
    if (logs.length > printed) process.stdout.write(logs.slice(printed));
    printed = Math.max(printed, logs.length);
    if (isTerminal(status)) return status;
    await abortableSleep(pollSeconds * 1000);
  }
}

/** Exit 0 when the job SUCCEEDED; a FAILED or STOPPED job is a failed run (exit 1). */
function exitByStatus(jobId: string, status: RayJobStatus): void {
  if (status === "FAILED" || status === "STOPPED") throw new Error(`job ${jobId} ${status}`);
}

// An unknown job, a refused token or an address where no dashboard answers is the caller's mistake: a usage error (exit 2).
async function usage<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof RayDashboardUnreachableError) throw new InputError(error.message);
    if (error instanceof RayJobsError && [401, 403, 404].includes(error.status)) throw new InputError(error.message);
    throw error;
  }
}

function splitKeyValue(flag: string, entry: string): [string, string] {
  const separator = entry.indexOf("=");
  if (separator <= 0) throw new InputError(`${flag} ${entry}: expected key=value`);
  return [entry.slice(0, separator), entry.slice(separator + 1)];
}

function readTrainConfig(file: string): TrainConfig {
  assertInputFile("--train-config", file);
  const parsed = TrainConfigSchema.safeParse(parseJsonFile(file));
  if (!parsed.success) throw new InputError(describeIssues(file, undefined, parsed.error));
  return parsed.data;
}
