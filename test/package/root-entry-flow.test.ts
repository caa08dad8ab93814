/** A cookbook outside the repository builds its flow as the built-ins do: `singleTurnFlow` comes from the root entry. */
import { afterAll, describe, expect, it } from "vitest";
import { singleTurnFlow, systemThenInstruction } from "../../src/index.js";
import { createRecordingLlmClient } from "../../src/testing/index.js";
import { openTestRun } from "../../src/testing/open-test-run.js";

const testRun = openTestRun();
afterAll(() => testRun.close());

describe("the root entry's one-call flow", () => {
  it("sends the system prompt and the instruction once and returns the reply as the solver trajectory", async () => {
    const client = createRecordingLlmClient({ reply: "4" });
    const flow = singleTurnFlow(systemThenInstruction("Answer with a number."));
    const trajectory = await flow({ id: "t1", instruction: "2+2?", metadata: {} }, testRun.flowContext(client, { sampling: { temperature: 0 } }));
    expect(client.calls).toHaveLength(1);
    expect(client.calls[0]!.messages).toEqual([
      { role: "system", content: "Answer with a number." },
      { role: "user", content: "2+2?" },
    ]);
    expect(trajectory).toMatchObject({ name: "solver", output: "4", reward: null });
  });
});
