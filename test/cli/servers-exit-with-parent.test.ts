// `npx rllm serve … &` runs the server as npx's child: once that parent is killed, the server must stop too and free
// its port, instead of living on re-parented (issue 35, item 7). Each server is started by a small node parent that
// is then killed with SIGKILL, so it cannot pass anything on.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { binPath } from "../helpers/run-cli.js";

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// The parent starts the server with its output on the parent's stderr, prints the server's pid, and waits.
const parentScript = `
const { spawn } = require("node:child_process");
const child = spawn(process.execPath, [${JSON.stringify(binPath)}, ...JSON.parse(process.argv[1])], { stdio: ["ignore", 2, 2] });
console.log(child.pid);
setInterval(() => {}, 1000);
`;

async function killParentOf(args: string[], ready: RegExp): Promise<{ serverPid: number; stderr: string; isGone: () => boolean }> {
  const parent = spawn(process.execPath, ["-e", parentScript, JSON.stringify(args)], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  parent.stderr!.on("data", (chunk) => (stderr += chunk));
  const [pidLine] = (await once(parent.stdout!, "data")) as [Buffer];
  const serverPid = Number(pidLine.toString().trim());
  try {
    await expect.poll(() => stderr, { timeout: 40_000 }).toMatch(ready);
  } finally {
    // Killed whether or not the server came up, so a failing test leaves neither process behind.
    parent.kill("SIGKILL");
    await once(parent, "exit");
  }
  return { serverPid, stderr, isGone: () => !isAlive(serverPid) };
}

describe("servers stop when the process that started them dies", () => {
  it("rllm serve --model tiny", async () => {
    const server = await killParentOf(["serve", "--model", "tiny", "--port", "0"], /tiny model at http/);
    await expect.poll(server.isGone, { timeout: 30_000, interval: 200 }).toBe(true);
  });

  it("rllm serve --rerank", async () => {
    const server = await killParentOf(["serve", "--rerank", "v1", "--upstream", "http://127.0.0.1:9/v1", "--model", "m", "--port", "0"], /reranking server at http/);
    await expect.poll(server.isGone, { timeout: 30_000, interval: 200 }).toBe(true);
  });

  // Issue #44: it kept running (and holding its port and sandbox slots) after its launcher was killed.
  it("rllm sandbox serve", async () => {
    const server = await killParentOf(["sandbox", "serve", "--port", "0", "--concurrency", "1"], /rllm sandbox on http/);
    await expect.poll(server.isGone, { timeout: 30_000, interval: 200 }).toBe(true);
  });

  it("rllm gateway", async () => {
    const server = await killParentOf(["gateway", "--upstream", "http://127.0.0.1:9/v1", "--port", "0"], /traces: up to/);
    await expect.poll(server.isGone, { timeout: 30_000, interval: 200 }).toBe(true);
  });
});
