/** Builds the Step that records one chat call: the messages sent, the chosen reply, its token ids and logprobs. */
import type { Step } from "../core/step.js";
import type { ChatRequest, ChatResponse } from "../core/llm-client.js";

/** What a Step is built from: a reply's choices (a traced reply may lack a finish reason), prompt ids and usage. */
export type StepSource = Pick<ChatResponse, "promptTokenIds" | "usage" | "cached"> & {
  choices: readonly (Omit<ChatResponse["choices"][number], "finishReason"> & { finishReason?: string })[];
};

/** The Step for choice `choiceIndex` of `response` (usage is split evenly across choices of an n>1 call). */
export function stepFromChat(request: Pick<ChatRequest, "messages">, response: StepSource, choiceIndex = 0): Step {
  const choice = response.choices[choiceIndex];
  if (!choice) throw new Error(`choice ${choiceIndex} not in a response of ${response.choices.length} choices`);
  const share = response.choices.length;
  return {
    input: request.messages,
    output: choice.text,
    toolCalls: choice.toolCalls,
    promptTokenIds: response.promptTokenIds,
    completionTokenIds: choice.completionTokenIds,
    logprobs: choice.logprobs,
    finishReason: choice.finishReason,
    ...(response.cached ? { cached: true } : {}),
    usage: {
      promptTokens: Math.round(response.usage.promptTokens / share),
      completionTokens: choice.completionTokenIds?.length ?? Math.round(response.usage.completionTokens / share),
      ...(response.usage.cachedPromptTokens ? { cachedPromptTokens: Math.round(response.usage.cachedPromptTokens / share) } : {}),
    },
    reward: 0,
    info: {},
  };
}
