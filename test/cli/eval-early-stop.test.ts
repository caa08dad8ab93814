// A run whose endpoint stops answering mid-run stops early with one line naming the URL, the model and the cause,
// instead of spending the retry budget on every task; the final line of a run with infra errors names their commonest
// cause; the resume hint is the full command, and it is accepted as printed (issue 35, items 1 and 6).
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { binPath, runCli } from "../helpers/run-cli.js";
import { startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-early-stop-"));
const repository = path.resolve(path.dirname(binPath), "..");
// A shell's environment, as a user's terminal has it: no npm variables and no node_modules/.bin on the path (vitest may
// run under npm, which adds both), so the printed command is run as the user would run it.
const shellEnvironment = Object.fromEntries(
  Object.entries({ ...process.env, PATH: (process.env.PATH ?? "").split(path.delimiter).filter((folder) => !folder.endsWith(path.join("node_modules", ".bin"))).join(path.delimiter) }).filter(([name]) => !name.startsWith("npm_")),
);
const servers: ScriptedServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

async function server(failFrom: number): Promise<ScriptedServer> {
  const started = await startScriptedServer((_body, call) => (call < failFrom ? { text: "\\boxed{1}" } : { status: 500, errorMessage: "upstream crashed" }));
  servers.push(started);
  return started;
}

describe("rllm eval against an endpoint that stops answering", () => {
  it("stops once the last 8 episodes all failed the same way, naming the URL, the model and the cause", async () => {
    const endpoint = await server(3);
    const out = path.join(directory, "stops");
    const result = await runCli(["eval", "arith", "--base-url", endpoint.url, "--model", "m", "--limit", "40", "--concurrency", "1", "--max-retries", "0", "--out", out]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`rllm: stopped early: the last 8 episodes all failed at ${endpoint.url} (model m): HTTP 500: 500 upstream crashed`);
    // 3 answers, then the 8 failures that stopped the run: far fewer than the 40 tasks.
    expect(endpoint.requests.length).toBe(11);
  });

  it("names the commonest infra cause in the final line when the run ends with infra errors", async () => {
    const endpoint = await server(0);
    const result = await runCli(["eval", "arith", "--base-url", endpoint.url, "--model", "m", "--limit", "3", "--max-retries", "0", "--out", path.join(directory, "all-fail")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("3 episodes could not be run (infra errors, not scored; most common cause (3×): HTTP 500: 500 upstream crashed); --resume retries them");
  });
});

describe("the Ctrl-C hint", () => {
  it("prints the full command, which finishes the run when typed as shown in the checkout's shell", async () => {
    const endpoint = await startScriptedServer(() => ({ text: "\\boxed{1}", delayMs: 100 }));
    servers.push(endpoint);
    const out = path.join(directory, "interrupted");
    const args = ["eval", "arith", "--base-url", endpoint.url, "--model", "m", "--limit", "30", "-n", "2", "--seed", "3", "--concurrency", "1", "--out", out];
    // Started as `node bin/rllm.js` from the checkout, outside npm: no rllm on the shell's path, so the hint says npx rllm.
    const child = spawn(process.execPath, [binPath, ...args], { cwd: repository, env: shellEnvironment, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    // Interrupt once a few episodes are in.
    await expect.poll(() => endpoint.requests.length, { timeout: 30_000 }).toBeGreaterThan(3);
    child.kill("SIGINT");
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(1);
    const hint = /finish with: (.*)$/m.exec(stderr)?.[1];
    expect(hint).toBe(`npx rllm eval arith --base-url ${endpoint.url} --model m --limit 30 -n 2 --seed 3 --concurrency 1 --out ${out} --resume`);
    // Not spawnSync: the scripted endpoint answers from this process.
    const shell = spawn("bash", ["-c", hint!], { cwd: repository, env: shellEnvironment, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    shell.stdout!.on("data", (chunk) => (output += chunk));
    shell.stderr!.on("data", (chunk) => (output += chunk));
    expect(await new Promise((resolve) => shell.on("close", resolve)), output).toBe(0);
    expect(output).toContain("30 × 2 (60 scored");
  });
});
