import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startGateway, type Gateway } from "../../src/gateway/gateway-server.js";
import type { TraceRecord } from "../../src/gateway/trace-record.js";
import { TraceStore } from "../../src/gateway/trace-store.js";
import { startFakeVllm, type FakeVllm } from "./fake-vllm-server.js";

const stores: TraceStore[] = [];
afterEach(() => {
  while (stores.length > 0) stores.pop()!.close();
});

function trace(sessionId: string, number: number): TraceRecord {
  return {
    traceId: `t${number}`,
    sessionId,
    endpoint: "chat/completions",
    model: "m",
    messages: [{ role: "user", content: `call ${number}` }],
    choices: [{ text: `reply ${number}`, toolCalls: [], completionTokenIds: [number], logprobs: [-0.5] }],
    usage: { promptTokens: 1, completionTokens: 1 },
    latencyMs: 1,
    timestamp: number,
  };
}

function store(options: ConstructorParameters<typeof TraceStore>[0]): TraceStore {
  const created = new TraceStore(options);
  stores.push(created);
  return created;
}

const temporaryFile = () => path.join(mkdtempSync(path.join(os.tmpdir(), "traces-")), "nested", "traces.jsonl");
const ids = (traces: TraceRecord[]) => traces.map((entry) => entry.traceId);

describe("TraceStore", () => {
  it("keeps at most maxInMemory traces, evicting the oldest across sessions first", () => {
    const traces = store({ maxInMemory: 3 });
    traces.add(trace("a", 1));
    traces.add(trace("b", 2));
    traces.add(trace("a", 3));
    traces.add(trace("b", 4));
    traces.add(trace("a", 5));
    expect(ids(traces.traces("a"))).toEqual(["t3", "t5"]);
    expect(ids(traces.traces("b"))).toEqual(["t4"]);
    expect(traces.evictedCount("a")).toBe(1);
    expect(traces.evictedCount("b")).toBe(1);
  });

  it("reads evicted traces back from the trace file, in call order", () => {
    const file = temporaryFile();
    const traces = store({ maxInMemory: 2, file });
    for (let number = 1; number <= 6; number++) traces.add(trace(number % 2 === 0 ? "even" : "odd", number));
    expect(ids(traces.traces("even"))).toEqual(["t2", "t4", "t6"]);
    expect(ids(traces.traces("odd"))).toEqual(["t1", "t3", "t5"]);
    expect(readFileSync(file, "utf8").trim().split("\n")).toHaveLength(6);
  });

  it("does not count a deleted session's traces against the cap, nor read them back for a new session of that id", () => {
    const traces = store({ maxInMemory: 2, file: temporaryFile() });
    traces.add(trace("a", 1));
    traces.add(trace("a", 2));
    traces.delete("a");
    traces.add(trace("b", 3));
    traces.add(trace("a", 4));
    expect(ids(traces.traces("b"))).toEqual(["t3"]);
    expect(ids(traces.traces("a"))).toEqual(["t4"]);
  });

  it("reopens a file torn by a crash and keeps appending whole lines after the torn one", () => {
    const file = temporaryFile();
    const first = store({ file });
    first.add(trace("a", 1));
    first.close();
    stores.pop();
    appendFileSync(file, '{"traceId":"t2","sess');
    const second = store({ maxInMemory: 1, file });
    second.add(trace("a", 3));
    second.add(trace("a", 4));
    expect(ids(second.traces("a"))).toEqual(["t3", "t4"]);
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(4);
    expect(JSON.parse(lines[3]!).traceId).toBe("t4");
  });
});

describe("the gateway's trace cap", () => {
  let upstream: FakeVllm | undefined;
  let gateway: Gateway | undefined;
  afterEach(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it("serves a session's evicted traces from its trace file over HTTP", async () => {
    upstream = await startFakeVllm();
    gateway = await startGateway({ upstream: upstream.baseUrl, maxTracesInMemory: 2, traceFile: temporaryFile() });
    for (let call = 0; call < 4; call++) {
      const response = await fetch(`${gateway.sessionUrl("capped")}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ role: "user", content: `call ${call}` }] }),
      });
      expect(response.status).toBe(200);
    }
    const { traces } = (await (await fetch(`${gateway.url}/sessions/capped/traces`)).json()) as { traces: TraceRecord[] };
    expect(traces.map((entry) => entry.messages[0]!.content)).toEqual(["call 0", "call 1", "call 2", "call 3"]);
  });
});
