/**
 * A SandboxFusion-compatible host with the limits and faults real deployments have, as a separate process on
 * 127.0.0.1: `node --import tsx test/helpers/fake-sandbox-host.ts '<behaviour JSON>'` prints "fake sandbox host on
 * http://127.0.0.1:PORT" once it listens. It runs each program with the real python3 (unsandboxed: tests send only
 * their own programs), on the request's stdin and run_timeout, and answers in SandboxFusion's wire format
 * (bytedance/SandboxFusion `sandbox/server/sandbox_api.py`, `sandbox/runners/base.py`: stdout and stderr captured up to
 * 1 MiB each, a time-out is TimeLimitExceeded). The behaviour adds, as a host in front of or instead of the real one:
 * - maxBodyBytes: nginx's `client_max_body_size` (1 MiB by default there): a longer body is a 413 with nginx's HTML page;
 * - maxRunTimeout: a deployment that validates run_timeout (FastAPI's 422, `{"detail": [{"loc": ["body",
 *   "run_timeout"], ...}]}`);
 * - failRealRuns: every run but the known-good control (`print(6 * 7)`) gets an HTTP 500, an HTML page with status 200,
 *   or SandboxFusion's SandboxError;
 * - forgeStdout: a malicious host that runs nothing and answers every run but the control with this stdout;
 * - apiKey: runs need `Authorization: Bearer KEY` (401 otherwise); every key received is appended to keysFile.
 */
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

interface Behaviour {
  maxBodyBytes?: number;
  maxRunTimeout?: number;
  failRealRuns?: "500" | "html" | "sandbox-error";
  forgeStdout?: string;
  apiKey?: string;
  keysFile?: string;
}

const behaviour = JSON.parse(process.argv[2] ?? "{}") as Behaviour;
const captureBytes = 1024 * 1024; // SandboxFusion's _MAX_CAPTURED_OUTPUT_BYTES
const controlCode = "print(6 * 7)";
const nginx413 =
  "<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

interface RunResult {
  status: "Finished" | "TimeLimitExceeded";
  execution_time: number;
  return_code: number | null;
  stdout: string;
  stderr: string;
}

function runPython(code: string, stdin: string, timeoutSeconds: number): Promise<RunResult> {
  const folder = mkdtempSync(path.join(tmpdir(), "fake-sandbox-host-"));
  writeFileSync(path.join(folder, "main.py"), code);
  const started = performance.now();
  const child = spawn("python3", ["main.py"], { cwd: folder, stdio: ["pipe", "pipe", "pipe"] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const capture = (chunks: Buffer[]) => (chunk: Buffer) => {
    const held = chunks.reduce((total, item) => total + item.length, 0);
    if (held < captureBytes) chunks.push(chunk.subarray(0, captureBytes - held));
  };
  child.stdout.on("data", capture(stdout));
  child.stderr.on("data", capture(stderr));
  child.stdin.on("error", () => undefined);
  child.stdin.end(stdin);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutSeconds * 1000);
  return new Promise((resolve) => {
    child.on("close", (code) => {
      clearTimeout(timer);
      rmSync(folder, { recursive: true, force: true });
      resolve({
        status: timedOut ? "TimeLimitExceeded" : "Finished",
        execution_time: (performance.now() - started) / 1000,
        return_code: timedOut ? null : code,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
  });
}

function send(response: ServerResponse, status: number, body: string, type = "application/json"): void {
  response.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) }).end(body);
}

function reply(run: RunResult): string {
  const isSuccess = run.status === "Finished" && run.return_code === 0;
  return JSON.stringify({ status: isSuccess ? "Success" : "Failed", message: "", compile_result: null, run_result: run, executor_pod_name: null, files: {} });
}

const server = createServer((request, response) => {
  if (request.method === "GET" && request.url === "/v1/ping") return send(response, 200, '"pong"');
  if (behaviour.maxBodyBytes !== undefined && Number(request.headers["content-length"] ?? 0) > behaviour.maxBodyBytes) {
    request.resume();
    return send(response, 413, nginx413, "text/html");
  }
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    void (async () => {
      const key = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      if (behaviour.keysFile) appendFileSync(behaviour.keysFile, `${key ?? "(none)"}\n`);
      if (behaviour.apiKey !== undefined && key !== behaviour.apiKey) return send(response, 401, '{"detail":"Unauthorized"}');
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { code: string; stdin?: string; run_timeout?: number };
      const runTimeout = body.run_timeout ?? 10;
      if (behaviour.maxRunTimeout !== undefined && runTimeout > behaviour.maxRunTimeout) {
        const detail = [{ type: "less_than_equal", loc: ["body", "run_timeout"], msg: `Input should be less than or equal to ${behaviour.maxRunTimeout}`, input: runTimeout }];
        return send(response, 422, JSON.stringify({ detail }));
      }
      const isControl = body.code === controlCode;
      if (!isControl && behaviour.forgeStdout !== undefined) {
        return send(response, 200, reply({ status: "Finished", execution_time: 0.01, return_code: 0, stdout: behaviour.forgeStdout, stderr: "" }));
      }
      if (!isControl && behaviour.failRealRuns === "500") return send(response, 500, "Internal Server Error", "text/plain");
      if (!isControl && behaviour.failRealRuns === "html") return send(response, 200, "<!DOCTYPE html><html><body><h1>Service Unavailable</h1></body></html>", "text/html");
      if (!isControl && behaviour.failRealRuns === "sandbox-error") {
        return send(response, 200, JSON.stringify({ status: "SandboxError", message: "failed to start the sandbox", compile_result: null, run_result: null, executor_pod_name: null, files: {} }));
      }
      send(response, 200, reply(await runPython(body.code, body.stdin ?? "", runTimeout)));
    })();
  });
});

server.listen(0, "127.0.0.1", () => {
  console.log(`fake sandbox host on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
