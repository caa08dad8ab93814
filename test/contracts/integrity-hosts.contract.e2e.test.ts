// The integrity contract's other half for remote sandbox hosts (issue #44): a host's own limit or fault is never the
// program's failure. Each case of integrity-cases.json's remoteSandboxHosts grades a right program through a host that
// has a limit or fault (a fake SandboxFusion host in its own process, or the real `rllm sandbox serve`): it must pass,
// on the host (split to fit its limits) or in the local sandbox. The wrong program beside it must still score 0.
import type { ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { openTestRun } from "../../src/testing/open-test-run.js";
import { codeGradeVerifier } from "../../verifiers/code/code-grade-verifier.js";
import { spawnCli } from "../helpers/run-cli.js";
import { sandboxServiceOrigin } from "../helpers/sandbox-service-origin.js";
import { startFakeSandboxHost } from "../helpers/start-fake-sandbox-host.js";
import { expectCandidateFailure, readIntegrityCases } from "./candidate-failure.js";

const table = readIntegrityCases();
const hosts: ChildProcess[] = [];

afterAll(() => {
  for (const child of hosts) child.kill("SIGKILL");
});

async function startHost(host: "rllm sandbox serve" | Record<string, unknown>): Promise<string> {
  if (host !== "rllm sandbox serve") {
    const fake = await startFakeSandboxHost(host);
    hosts.push(fake.child);
    return fake.url;
  }
  const child = spawnCli(["sandbox", "serve", "--port", "0", "--concurrency", "1"]);
  hosts.push(child);
  return sandboxServiceOrigin(child);
}

describe("code verifier through sandbox hosts with limits and faults of their own", () => {
  for (const testCase of table.remoteSandboxHosts.cases) {
    it(`${testCase.name}: the right program passes, the wrong one scores 0`, async () => {
      const url = await startHost(testCase.host);
      const rows = [testCase.row, { ...testCase.row, response: testCase.wrongResponse }].map((row) => codeGradeVerifier.rowSchema.parse(row));
      const run = openTestRun({ sandbox: { provider: "remote", urls: [url] }, concurrency: 1 });
      try {
        const [right, wrong] = await codeGradeVerifier.gradeRows(rows, { concurrency: 1, flags: {} }, run.evaluatorContext());
        expect(right, right?.explanation).toMatchObject({ status: "scored", value: 1, isCorrect: true });
        expectCandidateFailure(wrong!);
      } finally {
        await run.close();
      }
    }, 120_000);
  }
});
