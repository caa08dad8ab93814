// The pre-flight check: a run that needs an endpoint asks it once before starting, and a dead URL, a refused key or
// an unknown model ends the command at once with one line naming the URL, the model and the cause (issue 35, item 1).
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import http from "node:http";
import type { AddressInfo } from "node:net";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-preflight-"));
const servers: http.Server[] = [];
afterEach(async () => {
  while (servers.length > 0) await new Promise((resolve) => servers.pop()!.close(resolve));
});

/** A server answering each request with `reply(path)`; the paths it was asked for, in order. */
async function startServer(reply: (path: string) => { status: number; body: object }): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = http.createServer((request, response) => {
    request.resume();
    paths.push(`${request.method} ${request.url}`);
    const { status, body } = reply(request.url ?? "");
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, paths };
}

// Port 9 (discard) has no listener here: every connection is refused.
const closedPort = "http://127.0.0.1:9/v1";

describe("the pre-flight check of --base-url", () => {
  it("rllm eval on a closed port exits 1 with one line naming the URL, the model and 'connection refused', writing no run", async () => {
    const out = path.join(directory, "closed");
    const result = await runCli(["eval", "arith", "--base-url", closedPort, "--model", "tiny", "--limit", "5", "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe("rllm: cannot use http://127.0.0.1:9/v1 (model tiny): connection refused");
    expect(existsSync(out)).toBe(false);
  });

  it("rllm rerank on a closed port exits 1 with the same line", async () => {
    const input = path.join(directory, "rows.jsonl");
    writeFileSync(input, `${JSON.stringify({ id: "r1", problem: "2+2?", candidates: ["\\boxed{4}", "\\boxed{5}"] })}\n`);
    const result = await runCli(["rerank", "--input", input, "--base-url", closedPort, "--model", "tiny"]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe("rllm: cannot use http://127.0.0.1:9/v1 (model tiny): connection refused");
  });

  it("rllm train --backend tinker on a closed port exits 1 with the same line, writing no run", async () => {
    const out = path.join(directory, "train");
    const result = await runCli(["train", "arith", "--backend", "tinker", "--base-url", "http://127.0.0.1:9", "--model", "m", "--steps", "1", "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("rllm: cannot use http://127.0.0.1:9 (model m): connection refused");
    expect(existsSync(out)).toBe(false);
  });

  it("names a host that does not resolve", async () => {
    const result = await runCli(["eval", "arith", "--base-url", "http://no-such-host.invalid/v1", "--model", "m", "--limit", "1", "--out", path.join(directory, "dns")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("cannot use http://no-such-host.invalid/v1 (model m): host not found (DNS lookup failed)");
  });

  it("stops on a refused key after one request, with the server's message and the key hint", async () => {
    const server = await startServer(() => ({ status: 401, body: { error: { message: "Incorrect API key provided" } } }));
    const result = await runCli(["eval", "arith", "--base-url", server.url, "--model", "m", "--limit", "5", "--out", path.join(directory, "key")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`cannot use ${server.url} (model m): HTTP 401: Incorrect API key provided (check the API key`);
    expect(server.paths).toEqual(["GET /v1/models"]);
  });

  it("refuses a model the server does not list nor serve as a bad --model (exit 2)", async () => {
    const server = await startServer((path) =>
      path.endsWith("/models") ? { status: 200, body: { data: [{ id: "other" }] } } : { status: 404, body: { error: { message: "The model `nope` does not exist" } } },
    );
    const result = await runCli(["eval", "arith", "--base-url", server.url, "--model", "nope", "--limit", "5", "--out", path.join(directory, "model")]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`rllm: --model nope: ${server.url} does not serve it (HTTP 404: The model \`nope\` does not exist)`);
    expect(server.paths).toEqual(["GET /v1/models", "POST /v1/chat/completions"]);
  });
});
