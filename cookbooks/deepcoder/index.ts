/** The `deepcoder` cookbook: one LiveCodeBench-style prompt, one reply; reward 1 only if the last code block passes every test. */
import { messageText, type Cookbook } from "rllm-ts/core";
import { singleTurnFlow } from "rllm-ts/flows";
import { evaluateCodeEpisode } from "./evaluate-code-episode.js";
import { livecodebenchPrompt, livecodebenchSystemPrompt } from "./livecodebench-prompt.js";
import { sharedCodeGrader } from "./shared-code-grader.js";

export const deepcoderCookbook: Cookbook = {
  name: "deepcoder",
  description: "Single-turn code generation (LiveCodeBench prompt); the last fenced code block runs in a sandbox, reward 1 only if all tests pass.",
  flow: singleTurnFlow((task) => {
    const question = typeof task.instruction === "string" ? task.instruction : messageText(task.instruction);
    const starterCode = typeof task.metadata.starter_code === "string" ? task.metadata.starter_code : undefined;
    return [
      { role: "system", content: livecodebenchSystemPrompt },
      { role: "user", content: livecodebenchPrompt(question, starterCode) },
    ];
  }),
  async evaluate(task, episode) {
    return evaluateCodeEpisode(task, episode, await sharedCodeGrader());
  },
};
