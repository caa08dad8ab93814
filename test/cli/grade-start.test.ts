// rllm grade opens its verifier's pool as its flags parse (grade-start.ts); the action then grades on that same pool.
// A --set that changes the pool (math's timeoutMs) must start the pool it asks for, not the default one beside it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startGrading } from "../../src/cli/commands/grade-start.js";
import { GradeFlagsSchema } from "../../src/cli/commands/grade-flags.js";
import type { PoolDefinition } from "../../src/core/run-resources.js";
import { gradeVerifiers } from "../../verifiers/registry.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-grade-start-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("rllm grade's early pool", () => {
  it("is the pool the grading asks for: with --set timeoutMs the math pool opens once, with that limit", async () => {
    const input = path.join(directory, "rows.jsonl");
    writeFileSync(input, JSON.stringify({ response: "\\boxed{4}", ground_truth: "4" }) + "\n");
    const flags = GradeFlagsSchema.parse({ verifier: "math", input, set: ["timeoutMs=3000"] });
    const started = startGrading(flags);
    try {
      await started.warming;
      expect(started.resources.record().pools.math).toMatchObject({ timeoutMs: 3000 });
      const requested: PoolDefinition<unknown>[] = [];
      const verifier = await gradeVerifiers.load("math");
      const scores = await verifier.gradeRows([{ response: "\\boxed{4}", ground_truth: "4" }], { flags: { timeoutMs: 3000 } }, {
        sandbox: started.resources.sandbox,
        pool: (definition) => {
          requested.push(definition as PoolDefinition<unknown>);
          return started.resources.pool(definition);
        },
        signal: new AbortController().signal,
      });
      expect(scores[0]!.isCorrect).toBe(true);
      // The grading asked for the definition already open, so no second set of threads started.
      const warmed = await gradeVerifiers.get("math").loadPool!({ timeoutMs: 3000 });
      expect(requested).toEqual([warmed]);
      expect(requested[0]).toBe(warmed);
    } finally {
      await started.close();
    }
  });
});
