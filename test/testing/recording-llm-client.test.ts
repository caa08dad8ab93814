/** The recording LlmClient answers from its script and keeps every request. */
import { describe, expect, it } from "vitest";
import { createRecordingLlmClient } from "../../src/testing/recording-llm-client.js";

const ask = (content: string) => ({ messages: [{ role: "user" as const, content }] });

describe("createRecordingLlmClient", () => {
  it("answers every call with one text and records the requests in order", async () => {
    const client = createRecordingLlmClient({ reply: "42", model: "fake" });
    const first = await client.chat(ask("a"));
    await client.chat(ask("b"));
    expect(first).toEqual({ choices: [{ text: "42", toolCalls: [], finishReason: "stop" }], usage: { promptTokens: 0, completionTokens: 0 }, model: "fake" });
    expect(client.calls.map((call) => call.messages[0]!.content)).toEqual(["a", "b"]);
  });

  it("answers texts in call order and names the call that has no reply left", async () => {
    const client = createRecordingLlmClient({ reply: ["one", "two"] });
    expect((await client.chat(ask("x"))).choices[0]!.text).toBe("one");
    expect((await client.chat(ask("y"))).choices[0]!.text).toBe("two");
    await expect(client.chat(ask("z"))).rejects.toThrow("call 3 has no scripted reply (2 given)");
  });

  it("answers from a function of the request and the call index", async () => {
    const client = createRecordingLlmClient({ reply: (request, callIndex) => `${callIndex}:${String(request.messages[0]!.content)}` });
    expect((await client.chat(ask("q"))).choices[0]!.text).toBe("0:q");
    expect(client.model).toBe("recording");
  });
});
