// Every `rllm grade` verifier and every cookbook graded from a reply, fed the hostile inputs of integrity-cases.json:
// each must come back a scored 0 with a reason, never an infrastructure error. A verifier or cookbook without cases
// fails the coverage test, so a new one has to join the table.
import os from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { benchmarks } from "../../benchmarks/registry.js";
import { cookbooks } from "../../cookbooks/registry.js";
import { replyEpisode } from "../helpers/reply-episode.js";
import { gradeVerifiers } from "../../verifiers/index.js";
import { expectCandidateFailure, readIntegrityCases } from "./candidate-failure.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

const table = readIntegrityCases();
const verifiers = await gradeVerifiers.loadAll();

describe("integrity contract cases", () => {
  it("cover every grade verifier and every built-in cookbook", () => {
    expect(Object.keys(table.gradeVerifiers).sort()).toEqual(verifiers.map((verifier) => verifier.name).sort());
    const covered = [...table.cookbooks.map((entry) => entry.cookbook), ...Object.keys(table.environmentCookbooks)];
    expect(new Set(covered)).toEqual(new Set(cookbooks.names()));
    for (const entry of [...Object.values(table.gradeVerifiers), ...table.cookbooks]) expect(entry.cases.length).toBeGreaterThan(0);
  });
});

for (const verifier of verifiers) {
  const { flags, cases } = table.gradeVerifiers[verifier.name] ?? { flags: {}, cases: [] };
  describe(`${verifier.name} grade verifier on hostile input`, () => {
    for (const testCase of cases) {
      it(`${testCase.name}: a scored 0, not an infra error`, async () => {
        const [score] = await verifier.gradeRows([verifier.rowSchema.parse(testCase.row)], { concurrency: 1, flags }, testRun.evaluatorContext());
        expectCandidateFailure(score!);
      }, 60_000);
    }
  });
}

for (const entry of table.cookbooks) {
  describe(`${entry.cookbook} cookbook on hostile replies`, () => {
    for (const testCase of entry.cases) {
      it(`${testCase.name}: a scored 0, not an infra error`, async () => {
        const cookbook = await cookbooks.load(entry.cookbook);
        const tasks = await (await benchmarks.load(entry.benchmark)).loadTasks({ home: os.tmpdir() });
        const task = tasks.find((candidate) => candidate.id === entry.taskId);
        if (!task) throw new Error(`${entry.benchmark} has no bundled task "${entry.taskId}"`);
        const reply = testCase.reply;
        const episode = replyEpisode(task.id, reply);
        // An evaluator that throws (InfraError or anything else) turns the episode into an infra error: the rule forbids it.
        expectCandidateFailure(await cookbook.evaluate(task, episode, testRun.evaluatorContext()));
      }, 60_000);
    }
  });
}
