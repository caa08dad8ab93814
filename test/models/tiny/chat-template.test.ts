import { describe, expect, it } from "vitest";
import { arithQuestion } from "../../../benchmarks/arith/arith-problem.js";
import { applyChatTemplate } from "../../../src/models/tiny/chat-template.js";
import { compactPrompt } from "../../../src/models/tiny/prompt-compaction.js";
import { decodeTokens } from "../../../src/models/tiny/tokenizer.js";
import { pairJudgeMessages, pointJudgeMessages } from "../../../src/tournament/judge-prompts.js";

const question = arithQuestion("12+7*3");

describe("tiny chat template", () => {
  it("keeps only the expression of an arith question", () => {
    const ids = applyChatTemplate([{ role: "user", content: question }]);
    expect(decodeTokens(ids, true)).toBe("<|user|>12+7*3<|end|><|assistant|>");
  });

  it("is deterministic and drops a system prompt before a recognised question", () => {
    const withSystem = applyChatTemplate([
      { role: "system", content: "Be brief." },
      { role: "user", content: question },
    ]);
    expect(withSystem).toEqual(applyChatTemplate([{ role: "user", content: question }]));
  });

  it("reduces the tournament's pairwise judge prompt to the problem and both final answers", () => {
    const message = pairJudgeMessages("math", question, "First, 7*3 = 21.\nThen 12+21=33 so \\boxed{33}", "12+7=19 19*3=57 \\boxed{57}")[0]!;
    expect(compactPrompt(String(message.content))).toEqual({
      kind: "judge",
      expression: "12+7*3",
      solutionA: "\\boxed{33}",
      solutionB: "\\boxed{57}",
    });
    expect(decodeTokens(applyChatTemplate([message]), true)).toBe(
      "<|user|>12+7*3<|judge|><|A|>\\boxed{33}<|B|>\\boxed{57}<|end|><|assistant|>",
    );
  });

  it("keeps an empty solution empty and takes a rambling one's first boxed answer", () => {
    const message = pairJudgeMessages("math", question, "", "1+1=2 \\boxed{ 2 } then 3+3=6 \\boxed{6}")[0]!;
    const compact = compactPrompt(String(message.content));
    expect(compact).toMatchObject({ kind: "judge", solutionA: "", solutionB: "\\boxed{2}" });
  });

  it("leaves pointwise prompts and other text as plain characters", () => {
    const pointwise = pointJudgeMessages("math", question, "\\boxed{33}")[0]!;
    expect(compactPrompt(String(pointwise.content))).toBeUndefined();
    const ids = applyChatTemplate([{ role: "user", content: "hello" }]);
    expect(decodeTokens(ids, true)).toBe("<|user|>hello<|end|><|assistant|>");
  });
});
