// Whose fault a trusted checker's death is (issue #29): the program's, unless a known-good control run right after
// fails too. The sandbox is a fake that records every job, so each case can kill the checker exactly where it wants.
import { describe, expect, it } from "vitest";
import { gradeCallTests } from "../../../verifiers/code/grade-call-tests.js";
import type { ProcessOutcome, ProgramJob } from "../../../src/core/program-sandbox.js";
import type { TestCase } from "../../../verifiers/code/normalize-tests.js";
import type { RunContext } from "../../../verifiers/code/run-context.js";
import { SandboxLimitsSchema } from "../../../src/core/sandbox-limits.js";

/** What a job did in the fake sandbox: the checker's record lines, then how the run ended. */
interface FakeRun {
  records: string[];
  sandboxFailure?: string;
}

const quietEnd: ProcessOutcome = {
  exitCode: null,
  signal: "SIGKILL",
  stdout: Buffer.alloc(0),
  stderr: "",
  timedOut: false,
  outputLimitExceeded: false,
  stoppedEarly: false,
  memoryCapHit: false,
  wallMs: 5,
  checkerStderr: "",
  sandboxFailure: null,
};

/**
 * A context whose sandbox answers the candidate's runs with `candidate` (one run each, the last repeated) and the
 * control with `control`; `jobs` records each job.
 */
function fakeContext(candidate: FakeRun | FakeRun[], control: FakeRun): { context: RunContext; jobs: ProgramJob[] } {
  const jobs: ProgramJob[] = [];
  const candidateRuns = Array.isArray(candidate) ? candidate : [candidate];
  let candidateJobs = 0;
  const context: RunContext = {
    async run(job, _budget, onRecord) {
      jobs.push(job);
      const isControl = job.program.startsWith("def control()");
      const run = isControl ? control : candidateRuns[Math.min(candidateJobs++, candidateRuns.length - 1)]!;
      for (const line of run.records) onRecord?.(line);
      return { ...quietEnd, sandboxFailure: run.sandboxFailure ?? null };
    },
    deniedExitCode: 86,
    limits: SandboxLimitsSchema.parse({}),
    timeoutMs: 3000,
    runAllTests: false,
  };
  return { context, jobs };
}

const asserts: { test: TestCase; index: number }[] = [
  { test: { kind: "assert", code: "assert add(1, 2) == 3\n" }, index: 0 },
  { test: { kind: "assert", code: "assert add(5, 7) == 12\n" }, index: 1 },
];
const passingControl: FakeRun = { records: ['{"i": 0, "value": null}', '{"end": true}'] };
const deadControl: FakeRun = { records: [], sandboxFailure: "the sandbox exited (exit code 1)" };

describe("a trusted checker that dies while the program runs", () => {
  it("gives the problem one more run after a first death, and that run's verdict stands", async () => {
    const { context, jobs } = fakeContext([{ records: [] }, { records: ['{"i": 0, "value": null}', '{"i": 1, "value": null}', '{"end": true}'] }], passingControl);
    const results = await gradeCallTests(context, "def add(a, b):\n    return a + b\n", asserts, undefined);
    expect(results.map((result) => result.verdict)).toEqual(["accepted", "accepted"]);
    expect(jobs).toHaveLength(2);
    expect(jobs.every((job) => job.program.startsWith("def add"))).toBe(true);
  });

  it("fails the program with the reason when the checker dies on both runs and a known-good control passes right after", async () => {
    const { context, jobs } = fakeContext({ records: [] }, passingControl);
    const results = await gradeCallTests(context, "def add(a, b):\n    return a - b\n", asserts, undefined);
    expect(results).toEqual([
      { index: 0, verdict: "runtime_error", detail: expect.stringContaining("the trusted checker ended while this program ran, twice (a known-good control passed right after)") },
      { index: 1, verdict: "not_run" },
    ]);
    expect(jobs).toHaveLength(3);
    expect(jobs[2]!.program).not.toBe(jobs[0]!.program);
    expect(jobs[2]).toMatchObject({ mode: "assert", asserts: ["assert control() == 1\n"] });
  });

  it("keeps the tests the checker reported before it died and blames the first unreported one", async () => {
    const { context } = fakeContext({ records: ['{"i": 0, "value": null}'] }, passingControl);
    const results = await gradeCallTests(context, "def add(a, b):\n    return a + b\n", asserts, undefined);
    expect(results.map((result) => result.verdict)).toEqual(["accepted", "runtime_error"]);
  });

  it("is the infrastructure's failure only when the control fails too, naming both", async () => {
    const { context } = fakeContext({ records: [] }, deadControl);
    await expect(gradeCallTests(context, "def add(a, b):\n    return a + b\n", asserts, undefined)).rejects.toThrow(
      /the trusted checker ended without its end record; a known-good control failed right after \(.*the sandbox exited \(exit code 1\).*\): the sandbox is at fault/,
    );
  });

  it("names the sandbox's own last words when the whole sandbox ended, not an empty checker stderr", async () => {
    const { context } = fakeContext({ records: [], sandboxFailure: "the sandbox exited (exit code 1): BlockingIOError: [Errno 11]" }, passingControl);
    const [first] = await gradeCallTests(context, "def add(a, b):\n    return a + b\n", asserts, undefined);
    expect(first!.detail).toContain("BlockingIOError: [Errno 11]");
  });
});
