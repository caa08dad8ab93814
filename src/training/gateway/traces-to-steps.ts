/** Turns a session's traces into Steps (one per sampled choice, in call order) carrying token ids and logprobs. */
import type { Step } from "../../core/step.js";
import type { TraceRecord } from "./trace-record.js";

/** The Steps of `traces`: input messages, reply, sampler token ids and logprobs, finish reason, usage. */
export function tracesToSteps(traces: readonly TraceRecord[]): Step[] {
  const steps: Step[] = [];
  for (const trace of traces) {
    const share = Math.max(trace.choices.length, 1);
    for (const choice of trace.choices) {
      steps.push({
        input: trace.messages,
        output: choice.text,
        toolCalls: choice.toolCalls,
        promptTokenIds: trace.promptTokenIds,
        completionTokenIds: choice.completionTokenIds,
        logprobs: choice.logprobs,
        finishReason: choice.finishReason,
        usage: {
          promptTokens: Math.round(trace.usage.promptTokens / share),
          completionTokens: choice.completionTokenIds?.length ?? Math.round(trace.usage.completionTokens / share),
        },
        reward: 0,
        info: {
          traceId: trace.traceId,
          latencyMs: trace.latencyMs,
          ...(trace.weightVersion !== undefined ? { weightVersion: trace.weightVersion } : {}),
        },
      });
    }
  }
  return steps;
}
