// `rllm sandbox serve` called by the official clients its users have: the SandboxFusion client (sandbox-fusion 0.3.7)
// and verl's own sandbox_fusion reward (verl 0.9.1), both from the pinned ml environment.
import { type ChildProcess, spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonEnv } from "../helpers/python-env.js";
import { spawnCli } from "../helpers/run-cli.js";
import { sandboxServiceOrigin } from "../helpers/sandbox-service-origin.js";

const services: ChildProcess[] = [];
let first: string;
let second: string;
let python: string;

/** Starts `rllm sandbox serve` on a free port and resolves with its origin once it listens. */
async function serve(): Promise<string> {
  const child = spawnCli(["sandbox", "serve", "--port", "0", "--concurrency", "2"]);
  services.push(child);
  return sandboxServiceOrigin(child);
}

beforeAll(async () => {
  python = pythonEnv("ml");
  [first, second] = await Promise.all([serve(), serve()]);
}, 600_000);

afterAll(() => {
  for (const child of services) child.kill("SIGTERM");
});

function runPython(script: string): unknown {
  const run = spawnSync(python, ["-c", script], { encoding: "utf8", timeout: 120_000 });
  if (run.status !== 0) throw new Error(`python failed: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split("\n").at(-1)!);
}

describe("rllm sandbox serve, called by the official clients", () => {
  it("answers the official sandbox-fusion client: output, stdin, exit codes, time limits", () => {
    const result = runPython(`
import json
from sandbox_fusion import run_code, RunCodeRequest, set_endpoint
set_endpoint("${first}")
ok = run_code(RunCodeRequest(code="print(input()[::-1])", language="python", stdin="abc"))
bad = run_code(RunCodeRequest(code="import sys; sys.exit(3)", language="python"))
slow = run_code(RunCodeRequest(code="while True: pass", language="python", run_timeout=1))
print(json.dumps([[r.status.value, r.run_result.status.value, r.run_result.return_code, r.run_result.stdout] for r in (ok, bad, slow)]))
`);
    expect(result).toEqual([
      ["Success", "Finished", 0, "cba\n"],
      ["Failed", "Finished", 3, ""],
      ["Failed", "TimeLimitExceeded", expect.anything(), expect.any(String)],
    ]);
  });

  it("answers verl's own sandbox_fusion reward: a right program scores 1, a wrong one 0", () => {
    const result = runPython(`
import json, threading
from verl.utils.reward_score.sandbox_fusion import compute_score
tests = {"inputs": ["1 2\\n", "5 7\\n"], "outputs": ["3\\n", "12\\n"]}
semaphore = threading.Semaphore(4)
right = compute_score("${second}/run_code", semaphore, 1024, "\`\`\`python\\na, b = map(int, input().split())\\nprint(a + b)\\n\`\`\`", tests)
wrong = compute_score("${second}/run_code", semaphore, 1024, "\`\`\`python\\na, b = map(int, input().split())\\nprint(a * b)\\n\`\`\`", tests)
print(json.dumps([right[0], wrong[0]]))
`);
    expect(result).toEqual([1, 0]);
  });
});
