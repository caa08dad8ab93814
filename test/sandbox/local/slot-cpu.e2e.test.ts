// Each sandbox slot keeps to one CPU, its rank among the CPUs allowed (zygote.py's _keep_to_one_cpu): a job is a chain
// of hand-offs between the slot's processes, and a wake-up on another CPU costs an inter-processor interrupt.
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CodeGrader } from "../../../verifiers/code/code-grader.js";

// The program prints the CPUs it may run on; the checker is asked too, through an assert test that fails with them.
const printAffinity = "import os\nprint(sorted(os.sched_getaffinity(0)))\n";
let grader: CodeGrader;

beforeAll(async () => {
  grader = await CodeGrader.create({ timeoutSeconds: 5, concurrency: 2 });
});
afterAll(() => grader.close());

describe("a slot's CPU", () => {
  it("is one CPU per slot, and two slots on a machine with two or more take different ones", async () => {
    // Two runs at once hold both slots.
    const outcomes = await Promise.all([grader.programs.execute(printAffinity, "", 5), grader.programs.execute(printAffinity, "", 5)]);
    const affinities = outcomes.map((outcome) => JSON.parse(outcome.stdout.toString("utf8").trim()) as number[]);
    for (const affinity of affinities) expect(affinity).toHaveLength(1);
    if (os.availableParallelism() >= 2) expect(affinities[0]).not.toEqual(affinities[1]);
  });

  it("holds for the trusted checker too, which runs beside the program on the same CPU", async () => {
    const verdict = await grader.grade({
      program: "import os\ndef cpus():\n    return sorted(os.sched_getaffinity(0))\n",
      tests: [{ kind: "assert", code: "import os\nassert cpus() == sorted(os.sched_getaffinity(0)), (cpus(), sorted(os.sched_getaffinity(0)))\nassert len(cpus()) == 1\n" }],
    });
    expect(verdict.verdict, verdict.detail).toBe("accepted");
  });
});
