import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../src/gateway/gateway-server.js";
import { buildTokenSequences } from "../../src/training/transforms/index.js";
import { StepSchema } from "../../src/core/step.js";
import { startFakeVllm, type FakeVllm } from "./fake-vllm-server.js";

let upstream: FakeVllm;
let gateway: Gateway;

beforeAll(async () => {
  upstream = await startFakeVllm();
  gateway = await startGateway({
    upstream: upstream.baseUrl,
    model: "policy-v0",
    sampling: { temperature: 0.7, maxTokens: 64 },
  });
});
afterAll(async () => {
  await gateway.close();
  await upstream.close();
});

// A client that knows nothing of rllm-ts: plain fetch against the OpenAI protocol.
async function chat(baseUrl: string, body: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-client" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

describe("gateway", () => {
  it("records a raw-HTTP client's calls as Steps with token ids and logprobs", async () => {
    const base = gateway.sessionUrl("agent/run-1");
    const first = await chat(base, { model: "whatever", messages: [{ role: "user", content: "hi" }], temperature: 1.5 });
    expect(first.status).toBe(200);
    expect(first.json.choices[0].message.content).toBe("reply 1");
    await chat(base, {
      model: "whatever",
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "reply 1" },
        { role: "tool", content: "42", tool_call_id: "call-1" },
      ],
    });

    const response = await fetch(`${gateway.url}/sessions/${encodeURIComponent("agent/run-1")}/steps`);
    const { steps } = (await response.json()) as { steps: unknown[] };
    const parsed = steps.map((step) => StepSchema.parse(step));
    expect(parsed).toHaveLength(2);
    expect(parsed[0]!.completionTokenIds).toEqual([901, 902]);
    expect(parsed[0]!.logprobs).toEqual([-0.5, -0.25]);
    expect(parsed[0]!.promptTokenIds).toEqual([104, 105]); // "hi"
    expect(parsed[1]!.input).toHaveLength(3);
    expect(parsed[1]!.output).toBe("reply 2");
    expect(gateway.steps("agent/run-1")).toEqual(parsed);
    // The trace is usable by the transforms: two sequences since the fake's prompt ids do not extend.
    const built = buildTokenSequences(parsed);
    expect(built.ok).toBe(true);
  });

  it("adds token capture, pins the model and applies the run's sampling parameters upstream", () => {
    const sent = upstream.requests[0]!;
    expect(sent.logprobs).toBe(true);
    expect(sent.return_token_ids).toBe(true);
    expect(sent.model).toBe("policy-v0");
    expect(sent.temperature).toBe(0.7); // the run's value wins over the client's 1.5
    expect(sent.max_tokens).toBe(64);
  });

  it("strips server-only fields, and logprobs the client did not ask for, from the reply", async () => {
    const { json } = await chat(gateway.sessionUrl("strip"), { messages: [{ role: "user", content: "x" }] });
    expect(json).not.toHaveProperty("prompt_token_ids");
    expect(json).not.toHaveProperty("kv_transfer_params");
    expect(json.choices[0]).not.toHaveProperty("token_ids");
    expect(json.choices[0]).not.toHaveProperty("stop_reason");
    expect(json.choices[0].logprobs).toBeNull();
    const asked = await chat(gateway.sessionUrl("strip"), { messages: [{ role: "user", content: "x" }], logprobs: true });
    expect(asked.json.choices[0].logprobs.content[0].logprob).toBe(-0.5);
  });

  it("keeps sessions apart and deletes them on request", async () => {
    await chat(gateway.sessionUrl("one"), { messages: [{ role: "user", content: "a" }] });
    await chat(`${gateway.url}/v1`, { messages: [{ role: "user", content: "b" }] });
    expect(gateway.traces("one")).toHaveLength(1);
    expect(gateway.traces("default")).toHaveLength(1);
    const created = await fetch(`${gateway.url}/sessions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ session_id: "made" }) });
    expect(((await created.json()) as { url: string }).url).toBe(gateway.sessionUrl("made"));
    await fetch(`${gateway.url}/sessions/one`, { method: "DELETE" });
    expect(gateway.traces("one")).toEqual([]);
  });

  it("relays an upstream error status and body, recording nothing", async () => {
    const { status, json } = await chat(gateway.sessionUrl("bad"), { messages: [] });
    expect(status).toBe(400);
    expect(json.error.message).toBe("messages must not be empty");
    expect(gateway.traces("bad")).toEqual([]);
  });

  it("answers a session id that is not valid percent-encoding with a 400, not a 500 (issue #44)", async () => {
    for (const path of ["/sessions/%ZZ/v1/models", "/sessions/%E0%A4%A/traces", "/sessions/%ZZ"]) {
      const response = await fetch(`${gateway.url}${path}`, { method: path.endsWith("%ZZ") ? "DELETE" : "GET" });
      expect(response.status, path).toBe(400);
      expect((await response.json()).error.message).toMatch(/session id in the path is not valid percent-encoding/);
    }
  });

  it("answers a body nested past 512 levels with a 400 (a field 100,000 deep overflowed its stack: a 500), recording nothing", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const response = await fetch(`${gateway.sessionUrl("deep")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"messages":[{"role":"user","content":"a"}],"tools":${deep}}`,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toMatch(/nested deeper than 512 levels/);
    expect(gateway.traces("deep")).toEqual([]);
  });

  it("answers 502 when the upstream is down", async () => {
    const orphan = await startGateway({ upstream: "http://127.0.0.1:9/v1" });
    const { status, json } = await chat(orphan.sessionUrl("x"), { messages: [{ role: "user", content: "a" }] });
    await orphan.close();
    expect(status).toBe(502);
    expect(json.error.message).toMatch(/unreachable/);
  });
});
