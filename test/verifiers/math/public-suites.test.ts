import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { gradeMath, MathPolicySchema } from "../../../verifiers/math/index.js";

// (gold, prediction, verdict) cases extracted from the public checker suites named in each row's `source`
// (Math-Verify, lighteval, Hendrycks MATH, rLLM, lm-evaluation-harness, Qwen2.5-Math, latex2sympy2_extended).
// `class`: "clear" rows count towards agreement; "policy" rows depend on a grading policy (ours is pinned in
// `ours`, and `policy_flags`, when given, reproduce the suite's verdict); "suite-error" rows expect a wrong verdict.
const RowSchema = z.object({
  source: z.object({ repo: z.string(), path: z.string(), commit: z.string().length(40), test: z.string() }),
  licence: z.string(),
  gold: z.union([z.string(), z.array(z.string())]),
  prediction: z.string(),
  expected: z.boolean(),
  class: z.enum(["clear", "policy", "suite-error"]),
  disagreement: z.string().optional(),
  policy: z.string().optional(),
  policy_flags: MathPolicySchema.partial().optional(),
  ours: z.boolean().optional(),
});
type Row = z.infer<typeof RowSchema> & { line: number };

const file = new URL("./public-suites.jsonl", import.meta.url);
const rows: Row[] = readFileSync(file, "utf8")
  .split("\n")
  .map((text, index) => ({ text, line: index + 1 }))
  .filter(({ text }) => text.trim() !== "")
  .map(({ text, line }) => {
    const parsed = RowSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`public-suites.jsonl:${line}: ${parsed.error.message}`);
    return { ...parsed.data, line };
  });

const verdictOf = (row: Row, policy = {}) => gradeMath(row.prediction, row.gold, policy);
const describeRow = (row: Row) =>
  `line ${row.line} ${row.source.repo} ${row.source.test}: gold ${JSON.stringify(row.gold)} prediction ${JSON.stringify(row.prediction)}`;

describe("public checker suites", () => {
  const clear = rows.filter((row) => row.class === "clear");
  const verdicts = new Map(clear.map((row) => [row, verdictOf(row)]));
  const disagreeing = clear.filter((row) => verdicts.get(row)!.correct !== row.expected);

  it("agrees with at least 99% of the clear cases and never says equal where a suite says not equal", () => {
    const agreement = (clear.length - disagreeing.length) / clear.length;
    const falsePositives = disagreeing.filter((row) => verdicts.get(row)!.correct);
    console.log(`public suites: ${clear.length} clear cases, agreement ${(100 * agreement).toFixed(1)}%, false positives ${falsePositives.length}`);
    for (const row of disagreeing) console.log(`  disagreement ${describeRow(row)} → ${verdicts.get(row)!.reason}`);
    expect(clear.length).toBeGreaterThanOrEqual(300);
    expect(agreement).toBeGreaterThanOrEqual(0.99);
    expect(falsePositives.map(describeRow)).toEqual([]);
  });

  it("disagrees exactly on the clear cases whose disagreement is listed and classified", () => {
    expect(disagreeing.map(describeRow)).toEqual(clear.filter((row) => row.disagreement !== undefined).map(describeRow));
  });

  it.each(rows.filter((row) => row.class !== "clear").map((row) => [row.line, row.source.test, row] as const))(
    "line %i (%s): follows the documented policy, and the suite's flags reproduce its verdict",
    (_line, _test, row) => {
      expect(verdictOf(row).correct, verdictOf(row).reason).toBe(row.ours);
      if (row.policy_flags) expect(verdictOf(row, row.policy_flags).correct).toBe(row.expected);
    },
  );

  it("names the source, commit and licence of every row", () => {
    expect(new Set(rows.map((row) => row.source.repo))).toEqual(
      new Set([
        "huggingface/Math-Verify",
        "huggingface/lighteval",
        "hendrycks/math",
        "rllm-org/rllm",
        "EleutherAI/lm-evaluation-harness",
        "QwenLM/Qwen2.5-Math",
        "huggingface/latex2sympy2_extended",
      ]),
    );
    expect(rows.every((row) => ["Apache-2.0", "MIT"].includes(row.licence))).toBe(true);
  });
});
