/**
 * `rllm sandbox serve`: the local sandbox's program slots behind SandboxFusion's HTTP API (POST /run_code,
 * GET /v1/ping), with an optional API key, a body size limit and a run_timeout limit (stated in every reply's headers
 * with the output limit), a concurrency limit whose bounded queue answers 429 with Retry-After, and /health and /metrics
 * (Prometheus text) for a load balancer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { checkApiKey } from "../http/check-api-key.js";
import { HttpError } from "../http/http-error.js";
import { parseRequest } from "../http/parse-request.js";
import { readJsonBody } from "../http/read-json-body.js";
import { sendJson } from "../http/send-json.js";
import { requestPath, startHttpServer, type RunningHttpServer } from "../http/start-http-server.js";
import type { LocalPrograms } from "../core/program-sandbox.js";
import { limitHeaders, RunCodeRequestSchema, supportedLanguages, type ParsedRunCodeRequest } from "../core/sandbox-fusion-protocol.js";
import { AdmissionGate } from "./admission-gate.js";
import { runCodeReply } from "./run-code-reply.js";

export interface SandboxServiceOptions {
  host: string;
  port: number;
  /** The slots that run the programs; the service closes them on close. */
  programs: LocalPrograms;
  /** Required as `Authorization: Bearer KEY` or `X-API-Key: KEY` when set. */
  apiKey?: string;
  /** Runs at once (default: the slots). */
  concurrency?: number;
  /** Requests waiting for a run place before 429 (default 4 × concurrency). */
  queueLimit?: number;
  /** Largest request body, bytes (code + stdin). */
  maxBodyBytes?: number;
  /** Longest run_timeout a request may ask for, seconds. */
  maxRunTimeoutSeconds?: number;
}

export interface RunningSandboxService extends RunningHttpServer {
  /** Counters behind /metrics. */
  readonly counters: Readonly<Record<string, number>>;
}

/** Starts the service; `close` stops it and closes the sandbox. */
export async function startSandboxService(options: SandboxServiceOptions): Promise<RunningSandboxService> {
  const concurrency = options.concurrency ?? options.programs.concurrency;
  const gate = new AdmissionGate(concurrency, options.queueLimit ?? 4 * concurrency);
  const counters: Record<string, number> = { requests: 0, success: 0, failed: 0, sandbox_error: 0, rejected_busy: 0, rejected_invalid: 0 };
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const maxRunTimeout = options.maxRunTimeoutSeconds ?? 300;

  const runCode = async (request: IncomingMessage, response: ServerResponse) => {
    counters.requests! += 1;
    let body: ParsedRunCodeRequest;
    try {
      body = checkSupported(parseRequest(RunCodeRequestSchema, await readJsonBody(request, maxBodyBytes)), maxRunTimeout);
    } catch (error) {
      counters.rejected_invalid! += 1;
      throw error;
    }
    const admitted = await gate.tryRun(async () => {
      try {
        return runCodeReply(await options.programs.execute(body.code, body.stdin ?? "", body.run_timeout));
      } catch (error) {
        // The sandbox itself could not run it (a slot that cannot start): SandboxFusion's SandboxError, with the reason.
        return { status: "SandboxError" as const, message: (error as Error).message, compile_result: null, run_result: null, executor_pod_name: null, files: {} };
      }
    });
    if (!admitted) {
      counters.rejected_busy! += 1;
      const busy = new HttpError(429, `sandbox busy: ${gate.inFlight} runs in flight and ${gate.queued} waiting (limit ${gate.queueLimit}); retry later`);
      return sendJson(response, 429, busy.toBody(), { "retry-after": "1" });
    }
    const reply = admitted.value;
    counters[reply.status === "Success" ? "success" : reply.status === "Failed" ? "failed" : "sandbox_error"]! += 1;
    sendJson(response, 200, reply);
  };

  const server = await startHttpServer(
    async (request, response) => {
      // Stated on every reply, refusals included, so that a client splits a problem to fit instead of sending what
      // would be refused (src/sandbox/remote/sandbox-host-pool.ts).
      response.setHeader(limitHeaders.runTimeoutSeconds, String(maxRunTimeout));
      response.setHeader(limitHeaders.bodyBytes, String(maxBodyBytes));
      response.setHeader(limitHeaders.outputBytes, String(options.programs.limits.outputBytes));
      const route = `${request.method} ${requestPath(request)}`;
      if (route === "GET /v1/ping") return sendJson(response, 200, "pong");
      if (route === "GET /metrics") return sendMetrics(response, counters, gate);
      checkApiKey(request, options.apiKey);
      if (route === "POST /run_code") return runCode(request, response);
      throw new HttpError(404, `no route ${route} (this service answers POST /run_code, GET /v1/ping, /health and /metrics)`);
    },
    { host: options.host, port: options.port },
  );
  return {
    origin: server.origin,
    counters,
    close: async () => {
      await server.close();
      await options.programs.close();
    },
  };
}

/** The request, or a 400 naming the field this sandbox cannot honour. */
function checkSupported(body: ParsedRunCodeRequest, maxRunTimeout: number): ParsedRunCodeRequest {
  const refuse = (field: string, message: string) => new HttpError(400, `Invalid request: field "${field}": ${message}`, "invalid_request_error", field);
  if (!(supportedLanguages as readonly string[]).includes(body.language)) {
    throw refuse("language", `"${body.language}" is not run by this sandbox (supported: ${supportedLanguages.join(", ")})`);
  }
  if (body.run_timeout > maxRunTimeout) throw refuse("run_timeout", `${body.run_timeout} s is over this service's limit of ${maxRunTimeout} s`);
  if (Object.keys(body.files).length > 0) throw refuse("files", "files are not supported by rllm sandbox serve (send the data on stdin)");
  if (body.fetch_files.length > 0) throw refuse("fetch_files", "fetch_files is not supported by rllm sandbox serve");
  return body;
}

function sendMetrics(response: ServerResponse, counters: Record<string, number>, gate: AdmissionGate): void {
  const lines = [
    ...Object.entries(counters).map(([name, value]) => `rllm_sandbox_${name}_total ${value}`),
    `rllm_sandbox_in_flight ${gate.inFlight}`,
    `rllm_sandbox_queued ${gate.queued}`,
    `rllm_sandbox_concurrency ${gate.concurrency}`,
  ];
  const text = `${lines.join("\n")}\n`;
  response.writeHead(200, { "content-type": "text/plain; version=0.0.4", "content-length": String(Buffer.byteLength(text)) });
  response.end(text);
}
