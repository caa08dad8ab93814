/** Turns a session's traces into Steps (one per sampled choice, in call order) carrying token ids and logprobs. */
import type { Step } from "../core/step.js";
import { stepFromChat } from "../llm/step-from-chat.js";
import type { TraceRecord } from "./trace-record.js";

/**
 * The Steps of `traces`: each built as the client builds a call's Step (input messages, reply, sampler token ids and
 * logprobs, finish reason, usage split across choices), with the trace's id, latency and policy version in `info`.
 */
export function tracesToSteps(traces: readonly TraceRecord[]): Step[] {
  return traces.flatMap((trace) => {
    const response = { choices: trace.choices, promptTokenIds: trace.promptTokenIds, usage: trace.usage };
    const info = {
      traceId: trace.traceId,
      latencyMs: trace.latencyMs,
      ...(trace.weightVersion !== undefined ? { weightVersion: trace.weightVersion } : {}),
      // A /v1/completions call has no messages: its prompt rides along for the reader.
      ...(trace.prompt !== undefined ? { prompt: trace.prompt } : {}),
    };
    return trace.choices.map((_, index) => ({ ...stepFromChat({ messages: trace.messages }, response, index), info }));
  });
}
