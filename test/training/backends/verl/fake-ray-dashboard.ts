/**
 * A fake Ray dashboard speaking the Jobs REST shapes (docs.ray.io job-submission/rest): POST /api/jobs/ → submission
 * id, GET /api/jobs/<id> → status and message, GET …/logs → {logs}, POST …/stop → {stopped}; 404 for an unknown job
 * and 401 without the bearer token. Each status read moves a job one step along its scripted statuses.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RayJobStatus } from "../../../../src/training/backends/verl/ray-jobs-client.js";

interface FakeJob {
  submission: Record<string, unknown>;
  statuses: RayJobStatus[];
  reads: number;
  stopped: boolean;
}

export interface FakeRayDashboard {
  address: string;
  jobs: Map<string, FakeJob>;
  /** The statuses the next submitted job goes through, one per status read (the last one stays). */
  nextStatuses: RayJobStatus[];
  close(): Promise<void>;
}

/** Starts the fake; every request must carry `Authorization: Bearer <token>`. */
export async function startFakeRayDashboard(token: string): Promise<FakeRayDashboard> {
  const jobs = new Map<string, FakeJob>();
  const dashboard = { nextStatuses: ["PENDING", "RUNNING", "RUNNING", "SUCCEEDED"] as RayJobStatus[] };
  const status = (job: FakeJob): RayJobStatus => (job.stopped ? "STOPPED" : job.statuses[Math.min(job.reads, job.statuses.length - 1)]!);
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const send = (code: number, body: unknown) => {
        response.writeHead(code, { "content-type": "application/json" });
        response.end(typeof body === "string" ? body : JSON.stringify(body));
      };
      // As Ray's dashboard (optional_utils.is_browser_request): a Sec-Fetch-* header is browser traffic, refused.
      if (Object.keys(request.headers).some((name) => name.startsWith("sec-fetch-"))) return send(405, `'${request.method}' method not allowed for browser traffic.`);
      if (request.headers.authorization !== `Bearer ${token}`) return send(401, "Unauthorized: missing or invalid token");
      const route = (request.url ?? "/").split("?")[0]!;
      if (request.method === "POST" && route === "/api/jobs/") {
        const id = `raysubmit_${jobs.size + 1}`;
        jobs.set(id, { submission: JSON.parse(Buffer.concat(chunks).toString("utf8")), statuses: dashboard.nextStatuses, reads: 0, stopped: false });
        return send(200, { job_id: id, submission_id: id });
      }
      const match = /^\/api\/jobs\/([^/]+)(\/logs|\/stop)?$/.exec(route);
      const job = match ? jobs.get(match[1]!) : undefined;
      if (!match || !job) return send(404, `Job ${match?.[1]} does not exist`);
      if (request.method === "GET" && !match[2]) {
        const current = status(job);
        job.reads += 1;
        return send(200, { job_id: match[1], submission_id: match[1], status: current, message: `Job is ${current.toLowerCase()}`, entrypoint: job.submission.entrypoint });
      }
      if (request.method === "GET" && match[2] === "/logs") {
        // The log grows by one line per status read so far, as a running job's does.
        return send(200, { logs: Array.from({ length: job.reads }, (_, index) => `line ${index + 1}\n`).join("") });
      }
      if (request.method === "POST" && match[2] === "/stop") {
        const wasRunning = !["SUCCEEDED", "FAILED", "STOPPED"].includes(status(job));
        job.stopped = true;
        return send(200, { stopped: wasRunning });
      }
      send(404, "no route");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(dashboard, {
    address: `http://127.0.0.1:${port}`,
    jobs,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
