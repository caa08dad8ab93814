/** The `deepcoder` cookbook: one LiveCodeBench-style prompt, one reply; reward 1 only if the last code block passes every test. */
import { messageText, type Cookbook } from "rllm-ts/core";
import { singleTurnFlow } from "rllm-ts/flows";
import { codePool } from "rllm-ts/verifiers/code";
import { evaluateCodeEpisode } from "./evaluate-code-episode.js";
import { livecodebenchPrompt, livecodebenchSystemPrompt } from "./livecodebench-prompt.js";

export const deepcoderCookbook: Cookbook = {
  name: "deepcoder",
  description: "Single-turn code generation (LiveCodeBench prompt); the last fenced code block runs in the run's sandbox, reward 1 only if all tests pass.",
  // Its answers are programs: --rerank judges them with the code rubric.
  judgeKind: "code",
  // The run opens the sandbox's program slots as it starts, so the first episode does not wait for them.
  pools: [codePool],
  flow: singleTurnFlow((task) => {
    const question = typeof task.instruction === "string" ? task.instruction : messageText(task.instruction);
    const starterCode = typeof task.metadata.starter_code === "string" ? task.metadata.starter_code : undefined;
    return [
      { role: "system", content: livecodebenchSystemPrompt },
      { role: "user", content: livecodebenchPrompt(question, starterCode) },
    ];
  }),
  async evaluate(task, episode, context) {
    // 6 s per test, stopping at the first failure, as DeepCoder's and LiveCodeBench's graders do.
    return evaluateCodeEpisode(task, episode, (await context.pool(codePool)).grader());
  },
};
