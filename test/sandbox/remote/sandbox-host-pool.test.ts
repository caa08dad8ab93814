// The host pool's blame rule on servers that misbehave in set ways (they stand in for broken hosts, not for a peer):
// a failure is the host's only when the host then fails a known-good control run.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AllHostsFailedError, SandboxHostPool } from "../../../src/sandbox/remote/sandbox-host-pool.js";

type Behaviour = "ok" | "garbage" | "error-500" | "busy-once" | "garbage-for-program" | "hang" | "hang-program-once" | "hang-program";
const servers: Server[] = [];

function success(stdout: string) {
  return { status: "Success", message: "", run_result: { status: "Finished", return_code: 0, stdout, stderr: "" } };
}

async function host(behaviour: Behaviour): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  let isBusy = behaviour === "busy-once";
  let programHangs = behaviour === "hang-program-once" || behaviour === "hang-program";
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const code = (JSON.parse(body) as { code: string }).code;
      requests.push(code);
      const isControl = code === "print(6 * 7)";
      if (behaviour === "hang") return; // never answers
      if (programHangs && !isControl) {
        programHangs = behaviour === "hang-program";
        return;
      }
      if (isBusy) {
        isBusy = false;
        response.writeHead(429, { "retry-after": "0" }).end("busy");
      } else if (behaviour === "garbage" || (behaviour === "garbage-for-program" && !isControl)) {
        response.writeHead(200, { "content-type": "application/json" }).end('{"unexpected": true}');
      } else if (behaviour === "error-500") {
        response.writeHead(500).end("internal");
      } else {
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(success(isControl ? "42\n" : "out\n")));
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const request = { language: "python", code: "print('out')", stdin: "", run_timeout: 5, compile_timeout: 5 };

describe("SandboxHostPool", () => {
  it("moves a run off a host that fails its control, and grades it once on the next", async () => {
    const broken = await host("error-500");
    const healthy = await host("ok");
    const pool = new SandboxHostPool([broken.url, healthy.url], { cooldownMs: 60_000 });
    const results = [await pool.run(request), await pool.run(request)];
    expect(results.every((result) => result.kind === "reply" && result.host === healthy.url)).toBe(true);
    // The healthy host ran each program exactly once.
    expect(healthy.requests.filter((code) => code === request.code)).toHaveLength(2);
    expect(pool.statistics.find((entry) => entry.url === broken.url)?.failures).toBe(1);
  });

  it("blames the program, not the host, when the host passes its control right after", async () => {
    const picky = await host("garbage-for-program");
    const pool = new SandboxHostPool([picky.url]);
    const result = await pool.run(request);
    expect(result).toMatchObject({ kind: "program-failure", host: picky.url });
    expect(picky.requests).toEqual([request.code, "print(6 * 7)"]);
  });

  it("is an infrastructure error only when every host fails its control, naming each", async () => {
    const first = await host("garbage");
    const second = await host("error-500");
    const pool = new SandboxHostPool([first.url, second.url]);
    const failure = await pool.run(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AllHostsFailedError);
    expect((failure as AllHostsFailedError).reasons).toHaveLength(2);
    expect((failure as Error).message).toContain("HTTP 500");
    expect((failure as Error).message).toContain("not a RunCodeResponse");
  });

  it("counts a refused connection as the host's failure", async () => {
    const dead = await host("ok");
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const healthy = await host("ok");
    const result = await new SandboxHostPool([dead.url, healthy.url]).run(request);
    expect(result).toMatchObject({ kind: "reply", host: healthy.url });
  });

  it("gives up on a host that hangs, run and control alike, and grades the run on the next host", async () => {
    const hanging = await host("hang");
    const healthy = await host("ok");
    const pool = new SandboxHostPool([hanging.url, healthy.url], { requestSlackMs: 200, controlTimeoutMs: 500 });
    // Whichever host each run tries first, both end on the healthy one.
    const results = await Promise.all([pool.run({ ...request, run_timeout: 0.1, compile_timeout: 0.1 }), pool.run({ ...request, run_timeout: 0.1, compile_timeout: 0.1 })]);
    expect(results.map((result) => result.kind === "reply" && result.host)).toEqual([healthy.url, healthy.url]);
    expect(pool.statistics.find((entry) => entry.url === hanging.url)?.failures).toBeGreaterThanOrEqual(1);
  });

  it("sends a timed-out run once more when the host answers its control (it may have waited in a queue)", async () => {
    const queued = await host("hang-program-once");
    const pool = new SandboxHostPool([queued.url], { requestSlackMs: 200, controlTimeoutMs: 2000 });
    const result = await pool.run({ ...request, run_timeout: 0.1, compile_timeout: 0.1 });
    expect(result).toMatchObject({ kind: "reply", host: queued.url });
    expect(queued.requests).toEqual([request.code, "print(6 * 7)", request.code]);
  });

  it("blames a program whose runs time out twice on a host that answers its control, as a time limit", async () => {
    const stuck = await host("hang-program");
    const pool = new SandboxHostPool([stuck.url], { requestSlackMs: 200, controlTimeoutMs: 2000 });
    const result = await pool.run({ ...request, run_timeout: 0.1, compile_timeout: 0.1 });
    expect(result).toMatchObject({ kind: "program-failure", isTimeout: true });
    expect(stuck.requests.filter((code) => code === request.code)).toHaveLength(2);
  });

  it("waits out a 429 instead of failing the host", async () => {
    const busy = await host("busy-once");
    const result = await new SandboxHostPool([busy.url]).run(request);
    expect(result).toMatchObject({ kind: "reply", host: busy.url });
    expect(busy.requests).toEqual([request.code, request.code]);
  });
});
