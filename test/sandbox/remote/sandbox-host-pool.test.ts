// The host pool on servers that misbehave in set ways (they stand in for broken hosts, not for a peer): a host that did
// not run a request hands it to the next host, a known-good control run tells a broken host (left out for a while)
// from one that only could not take this request, and no failure of a host is ever returned as the program's.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AllHostsFailedError } from "../../../src/core/errors/all-hosts-failed-error.js";
import { SandboxHostPool } from "../../../src/sandbox/remote/sandbox-host-pool.js";

type Behaviour =
  | "ok"
  | "garbage"
  | "error-500"
  | "busy-once"
  | "garbage-for-program"
  | "hang"
  | "hang-program-once"
  | "hang-program"
  | "refuse-program-413"
  | "refuse-program-400"
  | "states-limits";
const servers: Server[] = [];

function success(stdout: string) {
  return { status: "Success", message: "", run_result: { status: "Finished", return_code: 0, stdout, stderr: "" } };
}

async function host(behaviour: Behaviour): Promise<{ url: string; requests: string[]; keys: (string | undefined)[] }> {
  const requests: string[] = [];
  const keys: (string | undefined)[] = [];
  let isBusy = behaviour === "busy-once";
  let programHangs = behaviour === "hang-program-once" || behaviour === "hang-program";
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const code = (JSON.parse(body) as { code: string }).code;
      requests.push(code);
      keys.push(request.headers.authorization);
      const isControl = code === "print(6 * 7)";
      if (behaviour === "hang") return; // never answers
      if (behaviour === "refuse-program-413" && !isControl) return response.writeHead(413, { "content-type": "text/html" }).end("<html>413 Request Entity Too Large</html>");
      if (behaviour === "refuse-program-400" && !isControl) return response.writeHead(400).end('{"error":{"message":"run_timeout over the limit"}}');
      if (behaviour === "states-limits") response.setHeader("x-rllm-max-run-timeout", "8");
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
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, keys };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

const request = { language: "python", code: "print('out')", stdin: "", run_timeout: 5, compile_timeout: 5 };

describe("SandboxHostPool", () => {
  it("moves a run off a host that fails its control, and grades it once on the next", async () => {
    const broken = await host("error-500");
    const healthy = await host("ok");
    const pool = new SandboxHostPool([{ url: broken.url }, { url: healthy.url }], { cooldownMs: 60_000 });
    const results = [await pool.run(request), await pool.run(request)];
    expect(results.every((result) => result.host === healthy.url)).toBe(true);
    // The healthy host ran each program exactly once.
    expect(healthy.requests.filter((code) => code === request.code)).toHaveLength(2);
    expect(pool.statistics.find((entry) => entry.url === broken.url)?.failures).toBe(1);
  });

  // Issue #44: "the control passed, so the program is guilty" is unsound: the run itself may be what the host cannot do.
  it("never blames the program when a host fails its run but passes its control: the run goes to the next host", async () => {
    const picky = await host("garbage-for-program");
    const healthy = await host("ok");
    const alone = await new SandboxHostPool([{ url: picky.url }]).run(request).catch((error: unknown) => error);
    expect(alone).toBeInstanceOf(AllHostsFailedError);
    expect(alone).toMatchObject({ isRequestRejected: false, message: expect.stringContaining("its control run passed") });
    expect(picky.requests).toEqual([request.code, "print(6 * 7)"]);
    const pool = new SandboxHostPool([{ url: picky.url }, { url: healthy.url }]);
    const results = [await pool.run(request), await pool.run(request)];
    expect(results.map((result) => result.host)).toEqual([healthy.url, healthy.url]);
    // A host that passes its control is not left out: it may take the next request.
    expect(pool.statistics.find((entry) => entry.url === picky.url)?.failures).toBe(0);
  });

  it("leaves out a host that fails every real run while passing its control, after three in a row", async () => {
    const picky = await host("garbage-for-program");
    const healthy = await host("ok");
    const pool = new SandboxHostPool([{ url: picky.url }, { url: healthy.url }], { cooldownMs: 60_000 });
    for (let index = 0; index < 12; index += 1) expect((await pool.run(request)).host).toBe(healthy.url);
    // Round robin sends it every other run; once it has failed three in a row it is left out for the cooldown.
    expect(picky.requests.filter((code) => code === request.code)).toHaveLength(3);
    // Alone, it is still tried: the cooldown only moves work to hosts that remain.
    const alone = new SandboxHostPool([{ url: picky.url }], { cooldownMs: 60_000, maxFailedRunsInARow: 1 });
    for (let index = 0; index < 2; index += 1) await expect(alone.run(request)).rejects.toBeInstanceOf(AllHostsFailedError);
    expect(picky.requests.filter((code) => code === request.code)).toHaveLength(5);
  });

  it("takes a 4xx about the request (413, 400) as a refusal of that request: the next host runs it, no control is run", async () => {
    const small = await host("refuse-program-413");
    const strict = await host("refuse-program-400");
    const healthy = await host("ok");
    const refused = await new SandboxHostPool([{ url: small.url }, { url: strict.url }]).run(request).catch((error: unknown) => error);
    expect(refused).toMatchObject({ isRequestRejected: true });
    const reasons = (refused as AllHostsFailedError).reasons;
    expect([reasons.some((reason) => reason.includes("HTTP 413")), reasons.some((reason) => reason.includes("HTTP 400"))]).toEqual([true, true]);
    expect(small.requests).toEqual([request.code]);
    const result = await new SandboxHostPool([{ url: small.url }, { url: healthy.url }]).run(request);
    expect(result.host).toBe(healthy.url);
  });

  it("sends no request over a host's stated limits (x-rllm-max-run-timeout): it goes to another host, or is refused", async () => {
    const limited = await host("states-limits");
    const pool = new SandboxHostPool([{ url: limited.url }]);
    await pool.run(request); // the reply states the limit: 8 s
    const long = { ...request, run_timeout: 20 };
    await expect(pool.run(long)).rejects.toMatchObject({ isRequestRejected: true, message: expect.stringContaining("over its limit of 8 s") });
    expect(limited.requests).toEqual([request.code]);
  });

  it("sends each host its own API key and no other", async () => {
    const first = await host("ok");
    const second = await host("ok");
    const pool = new SandboxHostPool([{ url: first.url, apiKey: "first-key" }, { url: second.url }]);
    await Promise.all([pool.run(request), pool.run(request), pool.run(request), pool.run(request)]);
    expect(first.keys.length).toBeGreaterThan(0);
    expect(new Set(first.keys)).toEqual(new Set(["Bearer first-key"]));
    expect(new Set(second.keys)).toEqual(new Set([undefined]));
  });

  it("is an infrastructure error only when every host fails its control, naming each", async () => {
    const first = await host("garbage");
    const second = await host("error-500");
    const pool = new SandboxHostPool([{ url: first.url }, { url: second.url }]);
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
    const result = await new SandboxHostPool([{ url: dead.url }, { url: healthy.url }]).run(request);
    expect(result.host).toBe(healthy.url);
  });

  it("gives up on a host that hangs, run and control alike, and grades the run on the next host", async () => {
    const hanging = await host("hang");
    const healthy = await host("ok");
    const pool = new SandboxHostPool([{ url: hanging.url }, { url: healthy.url }], { requestSlackMs: 200, controlTimeoutMs: 500 });
    // Whichever host each run tries first, both end on the healthy one.
    const results = await Promise.all([pool.run({ ...request, run_timeout: 0.1, compile_timeout: 0.1 }), pool.run({ ...request, run_timeout: 0.1, compile_timeout: 0.1 })]);
    expect(results.map((result) => result.host)).toEqual([healthy.url, healthy.url]);
    expect(pool.statistics.find((entry) => entry.url === hanging.url)?.failures).toBeGreaterThanOrEqual(1);
  });

  it("sends a timed-out run once more when the host answers its control (it may have waited in a queue)", async () => {
    const queued = await host("hang-program-once");
    const pool = new SandboxHostPool([{ url: queued.url }], { requestSlackMs: 200, controlTimeoutMs: 2000 });
    const result = await pool.run({ ...request, run_timeout: 0.1, compile_timeout: 0.1 });
    expect(result.host).toBe(queued.url);
    expect(queued.requests).toEqual([request.code, "print(6 * 7)", request.code]);
  });

  it("does not blame a program whose runs get no reply twice from a host that answers its control", async () => {
    const stuck = await host("hang-program");
    const pool = new SandboxHostPool([{ url: stuck.url }], { requestSlackMs: 200, controlTimeoutMs: 2000 });
    const failure = await pool.run({ ...request, run_timeout: 0.1, compile_timeout: 0.1 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ isRequestRejected: false, message: expect.stringContaining("no reply within") });
    expect(stuck.requests.filter((code) => code === request.code)).toHaveLength(2);
  });

  it("waits out a 429 instead of failing the host", async () => {
    const busy = await host("busy-once");
    const result = await new SandboxHostPool([{ url: busy.url }]).run(request);
    expect(result.host).toBe(busy.url);
    expect(busy.requests).toEqual([request.code, request.code]);
  });
});
