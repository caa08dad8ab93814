import { describe, expect, it } from "vitest";
import { SftRowSchema, type SftMessage } from "../../../src/datasets/sft-row.js";
import { tinyChatTokenizer } from "../../../src/training/sft/tiny-chat-tokenizer.js";
import { mergeCalls, tokenizeSftRow, type ChatTokenizer } from "../../../src/training/sft/tokenize-sft-row.js";

// A template that writes each message as [role id, content length] and opens the assistant turn with 9.
const roles = { system: 1, user: 2, assistant: 3, tool: 4 } as const;
const recordingTokenizer: ChatTokenizer = {
  promptTokenIds: (messages: readonly SftMessage[]) => [...messages.flatMap((message) => [roles[message.role], message.content.length]), 9],
  completionTokenIds: (_prompt, text) => [text.length, 0],
};

const conversation = SftRowSchema.parse({
  id: "r1",
  messages: [
    { role: "user", content: "ab" },
    { role: "assistant", content: "cde" },
    { role: "user", content: "f" },
    { role: "assistant", content: "ghij" },
  ],
  sampled: [{ promptTokenIds: [5, 6], completionTokenIds: [7, 8] }],
});

describe("tokenizeSftRow", () => {
  it("sampled: keeps the sampler's ids, the prompt masked", () => {
    expect(tokenizeSftRow(conversation, "sampled", undefined)).toEqual([{ tokens: [5, 6, 7, 8], lossMask: [0, 0, 1, 1] }]);
  });

  it("hf_template: the template's prompt before the last turn, only the last reply learned", () => {
    expect(tokenizeSftRow(conversation, "hf_template", recordingTokenizer)).toEqual([
      { tokens: [2, 2, 3, 3, 2, 1, 9, 4, 0], lossMask: [0, 0, 0, 0, 0, 0, 0, 1, 1] },
    ]);
  });

  it("cumulative: every assistant turn learned; a prompt that does not extend the last turn starts a new sequence", () => {
    // This template renders the earlier reply as [3, 3] but sampled it as [3, 0]: no prefix, so two sequences.
    expect(tokenizeSftRow(conversation, "cumulative", recordingTokenizer)).toEqual([
      { tokens: [2, 2, 9, 3, 0], lossMask: [0, 0, 0, 1, 1] },
      { tokens: [2, 2, 3, 3, 2, 1, 9, 4, 0], lossMask: [0, 0, 0, 0, 0, 0, 0, 1, 1] },
    ]);
  });

  it("refuses sampled on a row without token ids, naming the row", () => {
    const row = SftRowSchema.parse({ id: "plain", messages: [{ role: "user", content: "q" }, { role: "assistant", content: "a" }] });
    expect(() => tokenizeSftRow(row, "sampled", undefined)).toThrow("row plain: no sampled token ids");
  });

  it("reproduces the tiny model's sampled ids from its chat template on an arith row", () => {
    // Ids recorded by `rllm eval arith --split train` with the embedded model (task arith-train-0001, attempt 0).
    const row = SftRowSchema.parse({
      id: "arith",
      messages: [
        { role: "user", content: "What is 6*7*5? Show each step, then give the final answer as \\boxed{n}." },
        { role: "assistant", content: "6*7=42 42*5=385 \\boxed{385}" },
      ],
      sampled: [
        {
          promptTokenIds: [2, 36, 24, 37, 24, 35, 4, 3],
          completionTokenIds: [36, 24, 37, 43, 34, 32, 14, 34, 32, 24, 35, 43, 33, 38, 35, 14, 8, 33, 38, 35, 107, 4],
        },
      ],
    });
    expect(tokenizeSftRow(row, "hf_template", tinyChatTokenizer)).toEqual(tokenizeSftRow(row, "sampled", undefined));
  });
});

describe("mergeCalls", () => {
  it("continues a sequence when the next prompt extends it, masking the added prompt tokens", () => {
    const merged = mergeCalls([
      { promptTokenIds: [1, 2], completionTokenIds: [3] },
      { promptTokenIds: [1, 2, 3, 4], completionTokenIds: [5, 6] },
    ]);
    expect(merged).toEqual([{ tokens: [1, 2, 3, 4, 5, 6], lossMask: [0, 0, 1, 0, 1, 1] }]);
  });
});
