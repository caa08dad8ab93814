/** The `qa` cookbook: one question, one reply, graded by normalised exact match of the final answer. */
import type { Cookbook } from "../../src/core/cookbook.js";
import { messageText, type ChatMessage } from "../../src/core/message.js";
import { stepFromChat } from "../../src/llm/step-from-chat.js";
import { extractFinalAnswer, normalizeAnswer } from "./extract-final-answer.js";

const systemPrompt = "Answer the question. Put your final answer on the last line, or inside \\boxed{}.";

/** Final answer of the episode's solver reply, normalised for comparison. */
function finalAnswer(episodeOutput: string): string {
  return normalizeAnswer(extractFinalAnswer(episodeOutput));
}

export const qaCookbook: Cookbook = {
  name: "qa",
  description: "Single-turn question answering, graded by normalised exact match (last \\boxed{} or last line).",
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
  evaluate(task, episode) {
    const output = messageText(String(episode.trajectories[0]?.output ?? ""));
    const answer = finalAnswer(output);
    const expected = normalizeAnswer(String(task.metadata.ground_truth ?? ""));
    const isCorrect = answer !== "" && answer === expected;
    return { reward: isCorrect ? 1 : 0, isCorrect, answer, explanation: isCorrect ? "exact match" : `expected "${expected}"` };
  },
  extractAnswer(_task, episode) {
    const answer = finalAnswer(String(episode.trajectories[0]?.output ?? ""));
    return answer === "" ? undefined : answer;
  },
};
