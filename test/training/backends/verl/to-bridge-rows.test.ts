import { describe, expect, it } from "vitest";
import { toBridgeRows } from "../../../../src/training/backends/verl/to-bridge-rows.js";

const limits = { maxPromptLength: 3, maxResponseLength: 2 };

describe("toBridgeRows", () => {
  it("keeps the provenance verl needs: prompt length, group (uid), role and reward", () => {
    const { rows, droppedOverlong } = toBridgeRows(
      [{ tokens: [1, 2, 3, 4], lossMask: [0, 0, 1, 1], samplerLogprobs: [0, 0, -1, -2], advantage: 0.5, promptLength: 2, groupKey: "t:judge", role: "judge", reward: 1 }],
      limits,
    );
    expect(droppedOverlong).toBe(0);
    expect(rows).toEqual([{ tokens: [1, 2, 3, 4], lossMask: [0, 0, 1, 1], samplerLogprobs: [0, 0, -1, -2], promptLength: 2, advantage: 0.5, reward: 1, groupKey: "t:judge", role: "judge" }]);
  });

  it("takes the prompt to end at the first trained token when the sequence does not record it", () => {
    const { rows } = toBridgeRows([{ tokens: [1, 2, 3], lossMask: [0, 0, 1], samplerLogprobs: [0, 0, -1], advantage: 1 }], limits);
    expect(rows[0]!.promptLength).toBe(2);
  });

  it("drops and counts rows longer than the job's prompt or response length instead of truncating them", () => {
    const { rows, droppedOverlong } = toBridgeRows(
      [
        { tokens: [1, 2, 3, 4, 5], lossMask: [0, 0, 0, 0, 1], samplerLogprobs: [0, 0, 0, 0, -1], advantage: 1, promptLength: 4 },
        { tokens: [1, 2, 3, 4], lossMask: [0, 1, 1, 1], samplerLogprobs: [0, -1, -1, -1], advantage: 1, promptLength: 1 },
        { tokens: [1, 2], lossMask: [0, 1], samplerLogprobs: [0, -1], advantage: 1, promptLength: 1 },
      ],
      limits,
    );
    expect(droppedOverlong).toBe(2);
    expect(rows.map((row) => row.tokens)).toEqual([[1, 2]]);
  });
});
