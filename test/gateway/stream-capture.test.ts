import { describe, expect, it } from "vitest";
import { StreamCapture } from "../../src/gateway/stream-capture.js";

// Chunks as vLLM streams them with return_token_ids and logprobs: ids and logprobs per delta, prompt ids on the first.
const vllmChunks = [
  { model: "m", prompt_token_ids: [1, 2, 3], choices: [{ index: 0, delta: { role: "assistant", content: "" }, token_ids: [] }] },
  { choices: [{ index: 0, delta: { content: "Hel" }, token_ids: [10], logprobs: { content: [{ logprob: -0.1 }] } }] },
  { choices: [{ index: 0, delta: { content: "lo" }, token_ids: [11, 12], logprobs: { content: [{ logprob: -0.2 }, { logprob: -0.3 }] } }] },
  {
    choices: [
      { index: 0, delta: { tool_calls: [{ index: 0, id: "call-1", function: { name: "add", arguments: '{"a":' } }] }, token_ids: [13] },
    ],
  },
  { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "1}" } }] }, token_ids: [14], finish_reason: "tool_calls" }] },
  { choices: [], usage: { prompt_tokens: 3, completion_tokens: 5 } },
];

describe("StreamCapture", () => {
  it("joins content deltas, per-chunk token ids and logprobs, and tool-call fragments into one reply", () => {
    const capture = new StreamCapture("chat/completions");
    for (const chunk of vllmChunks) capture.add(chunk);
    expect(capture.result()).toEqual({
      model: "m",
      promptTokenIds: [1, 2, 3],
      weightVersion: undefined,
      usage: { promptTokens: 3, completionTokens: 5 },
      choices: [
        {
          text: "Hello",
          toolCalls: [{ id: "call-1", type: "function", function: { name: "add", arguments: '{"a":1}' } }],
          finishReason: "tool_calls",
          completionTokenIds: [10, 11, 12, 13, 14],
          logprobs: [-0.1, -0.2, -0.3],
        },
      ],
    });
  });

  it("reads legacy completion chunks and counts usage from token ids when the stream has no usage chunk", () => {
    const capture = new StreamCapture("completions");
    capture.add({ choices: [{ index: 1, text: "b", token_ids: [7], prompt_token_ids: [5, 6], logprobs: { token_logprobs: [-1] } }] });
    capture.add({ choices: [{ index: 0, text: "a", token_ids: [8, 9], logprobs: { token_logprobs: [-2, -3] }, finish_reason: "length" }] });
    capture.add("not a chunk");
    const result = capture.result();
    expect(result.choices.map((choice) => choice.text)).toEqual(["a", "b"]);
    expect(result.promptTokenIds).toEqual([5, 6]);
    expect(result.usage).toEqual({ promptTokens: 2, completionTokens: 3 });
    expect(result.choices[0]!.logprobs).toEqual([-2, -3]);
  });
});
