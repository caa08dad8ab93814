// The integrity contract (issue #29): a failure the candidate's answer or code could have caused is a scored 0 with
// its reason, never an infrastructure error (which the accuracy and the trainer leave out). Shared by the contract files.
import { readFileSync } from "node:fs";
import { expect } from "vitest";
import { ScoreSchema, type Score } from "../../src/core/score.js";

/** One hostile input, named for the test title. */
export interface HostileCase {
  name: string;
}

/** integrity-cases.json, with every `<<N×unit>>` in its texts expanded to unit repeated N times. */
export interface IntegrityCases {
  gradeVerifiers: Record<string, { flags: Record<string, unknown>; cases: (HostileCase & { row: unknown })[] }>;
  cookbooks: { cookbook: string; benchmark: string; taskId: string; cases: (HostileCase & { reply: string })[] }[];
  environmentCookbooks: {
    frozenlake: (HostileCase & { replies: string[] })[];
    /** `class` groups cases of one kind of attack under their own heading ("terminal import forgeries"). */
    terminal: (HostileCase & { class?: string; task: string; commands: string[] })[];
  };
  /** A right program (row) and a wrong one through a sandbox service with limits or faults of its own. */
  remoteSandboxHosts: {
    cases: (HostileCase & { host: "rllm sandbox serve" | Record<string, unknown>; row: Record<string, unknown>; wrongResponse: string })[];
  };
}

export function readIntegrityCases(): IntegrityCases {
  const text = readFileSync(new URL("./integrity-cases.json", import.meta.url), "utf8");
  return JSON.parse(text, (_key, value: unknown) =>
    typeof value === "string" ? value.replace(/<<(\d+)×([^>]*)>>/g, (_match, count: string, unit: string) => unit.repeat(Number(count))) : value,
  ) as IntegrityCases;
}

/** Asserts the rule: scored, 0, not correct, with a reason, and no infrastructure-error signal. */
export function expectCandidateFailure(raw: Score): void {
  const score = ScoreSchema.parse(raw);
  expect(score.signals.infraError, score.explanation).toBeUndefined();
  expect(score, score.explanation).toMatchObject({ status: "scored", value: 0, isCorrect: false });
  expect(score.explanation ?? "").not.toBe("");
}
