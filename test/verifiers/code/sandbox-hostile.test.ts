// Real programs, hostile ones included, run in the real sandbox: each case's verdict, then checks that the host is unharmed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, existsSync, writeFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";
import type { LocalProgramSlots } from "../../../src/sandbox/local/local-programs.js";
import { normalizeTests } from "../../../verifiers/code/normalize-tests.js";
import cases from "./hostile-cases.json" with { type: "json" };

const secret = `s3cret-${process.pid}`;
const hostDirectory = mkdtempSync(path.join(os.tmpdir(), "rllm-host-"));
const canary = path.join(hostDirectory, "canary.txt");
const canaryText = "canary-untouched";
const persistTarget = path.join(hostDirectory, "persisted.txt");
let grader: CodeGrader;
let server: Server;
let port = 0;
let connections = 0;

beforeAll(async () => {
  // A secret in our own environment: the sandboxed program must not see it.
  process.env.RLLM_TEST_SECRET = secret;
  writeFileSync(canary, canaryText);
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
  // Short limits keep the hostile cases fast; the defaults (6 s, 4 GiB) are the same code path.
  grader = await CodeGrader.create({ timeoutSeconds: 3, concurrency: 2 });
});

afterAll(() => {
  server?.close();
  delete process.env.RLLM_TEST_SECRET;
  rmSync(hostDirectory, { recursive: true, force: true });
});

function fill(text: string): string {
  return text
    .replaceAll("{{CANARY}}", canary)
    .replaceAll("{{CANARY_TEXT}}", canaryText)
    .replaceAll("{{PERSIST}}", persistTarget)
    .replaceAll("{{PORT}}", String(port))
    .replaceAll("{{SECRET}}", secret);
}

/** Processes left by this file's sandboxes: any process of a sandbox uid, or (without uid drop) a launcher process
 * that is ours or orphaned. Other test files may be running sandboxes of their own at the same time. */
function leftoverProcesses(): string[] {
  const uids = new Set((grader.programs as LocalProgramSlots).sandboxUids);
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        const uid = Number(/^Uid:\s+(\d+)/m.exec(status)?.[1]);
        if (uids.size > 0) return uids.has(uid) ? [pid] : [];
        const isLauncher = readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("/sandbox/rllm/zygote.py");
        return isLauncher && (descendsFromUs(pid) || /^PPid:\s+1$/m.test(status)) ? [pid] : [];
      } catch {
        return [];
      }
    });
}

function descendsFromUs(pid: string): boolean {
  let current = pid;
  for (let depth = 0; depth < 64 && current !== "0" && current !== "1"; depth += 1) {
    if (current === String(process.pid)) return true;
    current = /^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${current}/status`, "utf8"))?.[1] ?? "0";
  }
  return false;
}

describe("sandboxed programs", () => {
  it.each(cases)("$name", async (testCase) => {
    const { tests, fnName } = normalizeTests(JSON.parse(fill(JSON.stringify(testCase.tests))), testCase.fn_name);
    const verdict = await grader.grade({ program: fill(testCase.program), tests, fnName });
    expect(verdict.verdict, verdict.detail).toBe(testCase.expect);
    expect(verdict.passed).toBe(testCase.expect === "accepted");
  });
});

describe("the host after the hostile programs", () => {
  it("keeps the canary file unchanged and no file written from inside", () => {
    expect(readFileSync(canary, "utf8")).toBe(canaryText);
    expect(existsSync(persistTarget)).toBe(false);
  });

  it("received no network connection", () => {
    expect(connections).toBe(0);
  });

  it("has no sandboxed process left running once the grader is closed, and can still start processes", async () => {
    await grader.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(leftoverProcesses()).toEqual([]);
    expect(spawnSync("true").status).toBe(0);
  });
});
