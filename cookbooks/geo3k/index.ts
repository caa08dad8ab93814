/** The `geo3k` cookbook: a diagram and a question in one vision prompt, a final \boxed{} answer graded by the math verifier. */
import type { Cookbook } from "../../src/core/cookbook.js";
import type { ChatMessage } from "../../src/core/message.js";
import { stepFromChat } from "../../src/llm/step-from-chat.js";
import { evaluateMathEpisode, mathAnswerOf } from "../math/math-evaluator.js";

const systemPrompt =
  "You are given a geometry problem with its diagram. Reason step by step, then give the final answer " +
  "(a number or exact expression, angles in degrees) within \\boxed{}.";

export const geo3kCookbook: Cookbook = {
  name: "geo3k",
  description: "Geometry3K vision flow: diagram images interleaved with the problem text, graded by the math verifier.",
  async flow(task, context) {
    const messages: ChatMessage[] = [
      { role: "system", content: systemPrompt },
      { role: "user", content: task.instruction },
    ];
    const request = { messages, ...context.sampling, signal: context.signal };
    const response = await context.client.chat(request);
    const step = stepFromChat(request, response);
    return { name: "solver", steps: [step], reward: null, output: step.output, signals: {}, info: {} };
  },
  evaluate: evaluateMathEpisode,
  extractAnswer: mathAnswerOf,
  judgeKind: "math",
};
