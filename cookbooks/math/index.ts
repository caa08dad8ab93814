/** The `math` cookbook: one question, step-by-step reasoning, a final \boxed{} answer graded by the math verifier. */
import type { Cookbook } from "../../src/core/cookbook.js";
import type { ChatMessage } from "../../src/core/message.js";
import { stepFromChat } from "../../src/llm/step-from-chat.js";
import { evaluateMathEpisode, mathAnswerOf } from "./math-evaluator.js";

const systemPrompt = "Solve the problem step by step. Put your final answer within \\boxed{}.";

export const mathCookbook: Cookbook = {
  name: "math",
  description: "Single-turn math solving: reasoning then a final \\boxed{} answer, graded by the math verifier.",
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
