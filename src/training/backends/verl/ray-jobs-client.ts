/**
 * A client of the Ray Jobs REST API on the head node's dashboard (default port 8265; docs.ray.io
 * cluster/running-applications/job-submission/rest): submit, status, logs and stop, with an optional bearer token.
 * Only the reply fields used are parsed.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
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

/** Nothing answered at the dashboard's address (refused, unresolvable, or no reply within the time limit). */
export class RayDashboardUnreachableError extends Error {
  constructor(
    readonly address: string,
    readonly reason: string,
  ) {
    super(`Ray dashboard ${address} does not answer (${reason}): is \`ray start --head\` running there? Check --address or RAY_ADDRESS`);
    this.name = "RayDashboardUnreachableError";
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

  // node:http, not fetch: undici's fetch always sends Sec-Fetch-Mode, and Ray's dashboard refuses any request with a
  // Sec-Fetch-* header as browser traffic (405, ray/dashboard/optional_utils.py is_browser_request).
  private async request(method: string, route: string, body?: unknown): Promise<unknown> {
    const headers: Record<string, string> = { accept: "application/json" };
    const payload = body !== undefined ? JSON.stringify(body) : undefined;
    if (payload !== undefined) headers["content-type"] = "application/json";
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    const url = new URL(this.address + route);
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const send = url.protocol === "https:" ? httpsRequest : httpRequest;
      const outgoing = send(url, { method, headers, timeout: this.options.timeoutMs ?? 30_000 }, (reply) => {
        let received = "";
        reply.setEncoding("utf8");
        reply.on("data", (chunk: string) => (received += chunk));
        reply.on("end", () => resolve({ status: reply.statusCode ?? 0, text: received }));
        reply.on("error", reject);
      });
      outgoing.on("timeout", () => outgoing.destroy(Object.assign(new Error("no reply in time"), { code: "no reply in time" })));
      outgoing.on("error", (error: NodeJS.ErrnoException) => reject(new RayDashboardUnreachableError(this.address, error.code ?? error.message)));
      outgoing.end(payload);
    });
    if (status < 200 || status >= 300) throw new RayJobsError(this.address, status, text);
    return JSON.parse(text) as unknown;
  }
}
