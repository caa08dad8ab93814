/**
 * A client of the Ray Jobs REST API on the head node's dashboard (default port 8265; docs.ray.io
 * cluster/running-applications/job-submission/rest): submit, status, logs and stop, with an optional bearer token.
 * Only the reply fields used are parsed.
 */
import { z } from "zod";

/** A job's status as Ray reports it. */
export const RayJobStatusSchema = z.enum(["PENDING", "RUNNING", "STOPPED", "SUCCEEDED", "FAILED"]);
export type RayJobStatus = z.infer<typeof RayJobStatusSchema>;

/** True once the job can no longer change. */
export function isTerminal(status: RayJobStatus): boolean {
  return status === "STOPPED" || status === "SUCCEEDED" || status === "FAILED";
}

/** `POST /api/jobs/`'s body. */
export interface RayJobSubmission {
  entrypoint: string;
  submission_id?: string;
  runtime_env?: { working_dir?: string; pip?: string[]; uv?: string[]; env_vars?: Record<string, string> };
  metadata?: Record<string, string>;
  entrypoint_num_cpus?: number;
  entrypoint_num_gpus?: number;
}

const SubmitReplySchema = z.object({ submission_id: z.string().optional(), job_id: z.string().nullish() });
const JobInfoSchema = z.object({ status: RayJobStatusSchema, message: z.string().nullish() });
const LogsReplySchema = z.object({ logs: z.string() });
const StopReplySchema = z.object({ stopped: z.boolean() });

/** The Ray dashboard answered with an error status; `status` 404 means no such job, 401/403 a missing or wrong token. */
export class RayJobsError extends Error {
  constructor(
    readonly address: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`Ray dashboard ${address} answered ${status}${RayJobsError.hint(status)}: ${body.slice(0, 300)}`);
    this.name = "RayJobsError";
  }

  private static hint(status: number): string {
    if (status === 401 || status === 403) return " (give its token with --token or RAY_JOBS_TOKEN)";
    if (status === 404) return " (no such job)";
    return "";
  }
}

export interface RayJobsClientOptions {
  /** The dashboard's address, e.g. http://head:8265 ("http://" is added when missing). */
  address: string;
  token?: string;
  /** Per-request time limit (default 30 s). */
  timeoutMs?: number;
}

/** The Ray Jobs REST API. */
export class RayJobsClient {
  readonly address: string;

  constructor(private readonly options: RayJobsClientOptions) {
    this.address = (/^https?:\/\//.test(options.address) ? options.address : `http://${options.address}`).replace(/\/+$/, "");
  }

  /** Submits a job; resolves with its submission id. */
  async submit(submission: RayJobSubmission): Promise<string> {
    const reply = SubmitReplySchema.parse(await this.request("POST", "/api/jobs/", submission));
    const id = reply.submission_id ?? reply.job_id;
    if (!id) throw new Error(`Ray dashboard ${this.address} accepted the job but returned no submission_id`);
    return id;
  }

  async status(jobId: string): Promise<{ status: RayJobStatus; message: string }> {
    const info = JobInfoSchema.parse(await this.request("GET", `/api/jobs/${encodeURIComponent(jobId)}`));
    return { status: info.status, message: info.message ?? "" };
  }

  /** The job's whole log so far. */
  async logs(jobId: string): Promise<string> {
    return LogsReplySchema.parse(await this.request("GET", `/api/jobs/${encodeURIComponent(jobId)}/logs`)).logs;
  }

  /** Asks Ray to stop the job; false when it had already ended. */
  async stop(jobId: string): Promise<boolean> {
    return StopReplySchema.parse(await this.request("POST", `/api/jobs/${encodeURIComponent(jobId)}/stop`)).stopped;
  }

  private async request(method: string, route: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    const reply = await fetch(this.address + route, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    });
    const text = await reply.text();
    if (!reply.ok) throw new RayJobsError(this.address, reply.status, text);
    return JSON.parse(text) as unknown;
  }
}
