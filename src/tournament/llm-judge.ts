/** A Judge on an LLM: sends the pairwise or pointwise prompt through the shared client and parses the ratings. */
import pLimit from "p-limit";
import { ModelError } from "../core/errors/model-error.js";
import { deriveSeed } from "../core/random.js";
import type { Step } from "../core/step.js";
import type { LlmClient, SamplingParams } from "../core/llm-client.js";
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
  /**
   * Base of per-call sampling seeds (ignored when `sampling.seed` is set): each call is seeded from it, its prompt and
   * how many times this judge had already been asked that prompt, so a rerun gets the same verdicts however the
   * concurrent calls interleave. Without it, judge calls are unseeded.
   */
  seed?: number;
  signal?: AbortSignal;
}

/**
 * An LLM judge. A reply without readable ratings is a tie with parseError; a prompt the server refuses (ModelError,
 * e.g. two long solutions past the context) is recorded the same way; an infrastructure failure propagates.
 */
export function createLlmJudge(options: LlmJudgeOptions): Judge {
  const limit = pLimit(options.concurrency ?? 8);

  const timesAsked = new Map<string, number>();
  // Called when compare/score is called, before any waiting, so the count follows the caller's (deterministic) order.
  // Undefined leaves the request's seed as `sampling` has it.
  function seedFor(messages: Step["input"]): number | undefined {
    if (options.seed === undefined || options.sampling?.seed !== undefined) return undefined;
    const prompt = JSON.stringify(messages);
    const asked = timesAsked.get(prompt) ?? 0;
    timesAsked.set(prompt, asked + 1);
    return deriveSeed(options.seed, prompt, asked);
  }

  async function call(messages: Step["input"], seed: number | undefined): Promise<{ text: string; step: Step }> {
    const request = { ...options.sampling, ...(seed !== undefined ? { seed } : {}), messages, signal: options.signal };
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
    compare: (problem, solutionA, solutionB) => {
      const messages = pairJudgeMessages(options.kind, problem, solutionA, solutionB);
      const seed = seedFor(messages);
      return limit(async (): Promise<PairJudgement> => {
        const { text, step } = await call(messages, seed);
        return { ...parsePairRatings(text), text, step };
      });
    },
    score: (problem, solution) => {
      const messages = pointJudgeMessages(options.kind, problem, solution);
      const seed = seedFor(messages);
      return limit(async (): Promise<PointJudgement> => {
        const { text, step } = await call(messages, seed);
        return { ...parsePointRating(text), text, step };
      });
    },
  };
}
