/** A scripted OpenAI-compatible server that generates candidates and judges them with a chosen accuracy (tests only). */
import { lastUserText, startScriptedServer, stringHash, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { createRng } from "../../src/core/random.js";

export const correctAnswer = "The answer is 42.";
export const wrongAnswer = (index: number) => `The answer is ${17 + (index % 3)}.`;
const isCorrectText = (text: string) => text.includes("42");

export interface ScriptedJudgeOptions {
  /** Chance the judge rates the correct one of a mixed pair higher. */
  judgeAccuracy: number;
  /** Chance each generated candidate is correct. */
  generationAccuracy?: number;
  seed?: number;
}

export interface ScriptedJudgeServer extends ScriptedServer {
  /** Every generated candidate's correctness, in generation order. */
  generated: boolean[];
}

/** Pairwise prompts get ratings 8 vs 3 (right way round with the given accuracy); others get candidates. */
export async function startScriptedJudge(options: ScriptedJudgeOptions): Promise<ScriptedJudgeServer> {
  const generated: boolean[] = [];
  // How often each prompt has been seen. Replies are keyed on the prompt and that count, not on the global call
  // order, so judge calls that a tournament sends concurrently get the same verdicts however they interleave.
  const seen = new Map<string, number>();
  const server = await startScriptedServer((body) => {
    const prompt = lastUserText(body);
    const occurrence = seen.get(prompt) ?? 0;
    seen.set(prompt, occurrence + 1);
    const rng = createRng(((options.seed ?? 1) * 100_003 + stringHash(prompt) + occurrence * 7919) >>> 0);
    const pair = /## Solution A\n([\s\S]*?)\n\n## Solution B\n([\s\S]*?)\n\nReason step by step/.exec(prompt);
    if (pair) {
      const correctA = isCorrectText(pair[1]!);
      const correctB = isCorrectText(pair[2]!);
      if (correctA === correctB) return { text: "Both look the same to me.\n<rating_A>6</rating_A>\n<rating_B>6</rating_B>" };
      const rightWay = rng() < options.judgeAccuracy;
      const aWins = rightWay === correctA;
      return { text: `Checked both.\n<rating_A>${aWins ? 8 : 3}</rating_A>\n<rating_B>${aWins ? 3 : 8}</rating_B>` };
    }
    const point = /## Solution\n([\s\S]*?)\n\nReason step by step/.exec(prompt);
    if (point) {
      const saysCorrect = rng() < (isCorrectText(point[1]!) ? options.judgeAccuracy : 1 - options.judgeAccuracy);
      return { text: `<rating>${saysCorrect ? 9 : 2}</rating>` };
    }
    const count = body.n ?? 1;
    const texts = Array.from({ length: count }, (_, index) => {
      const correct = rng() < (options.generationAccuracy ?? 0.3);
      generated.push(correct);
      return correct ? correctAnswer : wrongAnswer(index);
    });
    return { text: (index: number) => texts[index]! };
  });
  return { ...server, generated };
}
