// rllm grade --verifier code on sandbox services exits non-zero, naming the cause, when nothing could be graded: it
// checks its services before any row (as rllm eval checks its endpoint), and a run whose every row was lost to the
// services' failures ends with exit 1 and their commonest cause, not 0 with the cause only inside the rows.
import { mkdtempSync, writeFileSync, existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nothingGradedCause } from "../../src/cli/commands/grade.js";
import { scored, unscored } from "../../src/core/score.js";
import { runCli } from "../helpers/run-cli.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-grade-services-"));
const input = path.join(directory, "rows.jsonl");
writeFileSync(input, ["a", "b"].map((id) => JSON.stringify({ id, response: "print(int(input()) + 1)", tests: [{ input: "1\n", output: "2\n" }] })).join("\n") + "\n");
const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

/** A service that answers its liveness route and fails every run with HTTP 503, as one lost behind a proxy does. */
async function failingService(): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url === "/v1/ping") response.writeHead(200, { "content-type": "application/json" }).end('"pong"');
    else response.writeHead(503, { "content-type": "text/plain" }).end("upstream sandbox gone");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback port nothing listens on (fetch refuses the well-known dead ports 1 and 9 before connecting). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("rllm grade --sandbox URL when nothing can be graded", () => {
  it("exits 1 before any row when no service answers, naming each one and why", async () => {
    const [first, second] = [await closedPort(), await closedPort()];
    const output = path.join(directory, "dead.jsonl");
    const result = await runCli(["grade", "--verifier", "code", "--input", input, "--output", output, "--sandbox", `http://127.0.0.1:${first},http://127.0.0.1:${second}/run_code`]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n").at(-1)).toBe(
      `rllm: no sandbox for untrusted code: no sandbox service answered: http://127.0.0.1:${first} (ECONNREFUSED), http://127.0.0.1:${second}/run_code (ECONNREFUSED). ` +
        "Start one (rllm sandbox serve) or name services that run (--sandbox URL[,URL…], or sandbox in $RLLM_HOME/config.json)",
    );
    expect(existsSync(output)).toBe(false);
  });

  it("exits 1 naming the cause when every row was an infrastructure error", async () => {
    // The service answers its pre-flight and then fails every run; the local sandbox, which grades what no service
    // could, cannot start (no such Python), so no row is graded.
    const url = await failingService();
    const args = ["--input", input, "--output", path.join(directory, "lost.jsonl"), "--sandbox", url, "--timeout", "2"];
    const result = await runCli(["grade", "--verifier", "code", ...args], { RLLM_PYTHON: "/nonexistent/python3" });
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain("infra errors 2 (100.0%)");
    expect(result.stderr).toMatch(/^rllm: nothing could be graded: every row was an infrastructure error \(.*HTTP 503.*\)$/m);
  });
});

describe("nothingGradedCause", () => {
  const infra = (cause: string) => unscored(cause, { signals: { infraError: 1 } });

  it("names the commonest cause, with its count when the causes differ", () => {
    expect(nothingGradedCause([infra("ECONNREFUSED"), infra("ECONNREFUSED")])).toBe("ECONNREFUSED");
    expect(nothingGradedCause([infra("HTTP 503"), infra("ECONNRESET"), infra("HTTP 503")])).toBe("HTTP 503, 2 of 3 rows");
  });

  it("is undefined when a row was graded, a row was unscored for its own reason, or there were no rows", () => {
    expect(nothingGradedCause([infra("x"), scored(0, false)])).toBeUndefined();
    expect(nothingGradedCause([infra("x"), unscored("no ground truth")])).toBeUndefined();
    expect(nothingGradedCause([])).toBeUndefined();
  });
});
