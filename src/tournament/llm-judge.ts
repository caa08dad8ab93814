/** A Judge on an LLM: sends the pairwise or pointwise prompt through the shared client and parses the ratings. */
import pLimit from "p-limit";
import { ModelError } from "../core/errors/model-error.js";
import type { Step } from "../core/step.js";
import type { LlmClient, SamplingParams } from "../llm/llm-client.js";
import { stepFromChat } from "../llm/step-from-chat.js";
import type { Judge, PairJudgement, PointJudgement } from "./judge.js";
import type { JudgeKind } from "./judge-prompts.js";
import { pairJudgeMessages, pointJudgeMessages } from "./judge-prompts.js";
import { parsePairRatings, parsePointRating } from "./parse-ratings.js";

export interface LlmJudgeOptions {
  client: LlmClient;
  kind: JudgeKind;
  sampling?: SamplingParams;
  /** Judge calls in flight at once for this judge (the client's retries apply to each). */
  concurrency?: number;
  signal?: AbortSignal;
}

/**
 * An LLM judge. A reply without readable ratings is a tie with parseError; a prompt the server refuses (ModelError,
 * e.g. two long solutions past the context) is recorded the same way; an infrastructure failure propagates.
 */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const limit = pLimit(options.concurrency ?? 8);

  async function call(messages: Step["input"]): Promise<{ text: string; step: Step }> {
    const request = { ...options.sampling, messages, signal: options.signal };
    try {
      const response = await options.client.chat(request);
      const step = stepFromChat(request, response);
      return { text: step.output, step };
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      const step: Step = {
        input: messages,
        output: "",
        toolCalls: [],
        usage: { promptTokens: 0, completionTokens: 0 },
        reward: 0,
        info: { error: error.message },
      };
      return { text: "", step };
    }
  }

  return {
    compare: (problem, solutionA, solutionB) =>
      limit(async (): Promise<PairJudgement> => {
        const { text, step } = await call(pairJudgeMessages(options.kind, problem, solutionA, solutionB));
        return { ...parsePairRatings(text), text, step };
      }),
    score: (problem, solution) =>
      limit(async (): Promise<PointJudgement> => {
        const { text, step } = await call(pointJudgeMessages(options.kind, problem, solution));
        return { ...parsePointRating(text), text, step };
      }),
  };
}
