import { describe, expect, it } from "vitest";
import { arithQuestion, arithSolutionText } from "../../../benchmarks/arith/arith-problem.js";
import { applyChatTemplate } from "../../../src/models/tiny/chat-template.js";
import { seededRandom } from "../../../src/models/tiny/random.js";
import { decodeTokens } from "../../../src/models/tiny/tokenizer.js";
import { drawProblem, judgeExample, solveExample, trainingBatch, wrongSolution } from "../../../src/models/tiny/training-data.js";
import { pairJudgeMessages } from "../../../src/tournament/judge-prompts.js";
import { boxedInteger, parseRatings } from "../../../src/models/tiny/evaluate-tiny-model.js";

describe("tiny model training data", () => {
  it("never makes a wrong solution that is right", () => {
    const random = seededRandom(1);
    for (let index = 0; index < 500; index++) {
      const problem = drawProblem(random, "train");
      expect(boxedInteger(wrongSolution(problem, random))).not.toBe(problem.answer);
    }
  });

  it("trains on exactly the prompt tokens the chat template serves for the tournament's judge prompt", () => {
    const random = seededRandom(2);
    for (let index = 0; index < 50; index++) {
      const problem = drawProblem(random, "train");
      const example = judgeExample(problem, random, "answers");
      const text = decodeTokens(example.tokens, true);
      const [solutionA, solutionB] = [...text.matchAll(/\\boxed\{(-?\d+)\}/g)].map((match) => `${match[1]} so \\boxed{${match[1]}}`);
      const served = applyChatTemplate(pairJudgeMessages("math", arithQuestion(problem.expression), solutionA, solutionB));
      const promptLength = example.lossMask.indexOf(1);
      expect(example.tokens.slice(0, promptLength)).toEqual(served);
      const ratings = parseRatings(text)!;
      const [answerA, answerB] = [...text.matchAll(/\\boxed\{(-?\d+)\}/g)].map((match) => Number(match[1]));
      expect(ratings.ratingA).toBe(answerA === problem.answer ? 10 : 1);
      expect(ratings.ratingB).toBe(answerB === problem.answer ? 10 : 1);
    }
  });

  it("serves a solve prompt as trained and only trains on the reply", () => {
    const problem = drawProblem(seededRandom(3), "train");
    const example = solveExample(problem);
    const promptLength = example.lossMask.indexOf(1);
    expect(example.tokens.slice(0, promptLength)).toEqual(applyChatTemplate([{ role: "user", content: arithQuestion(problem.expression) }]));
    expect(decodeTokens(example.tokens.slice(promptLength))).toBe(arithSolutionText(problem));
  });

  it("replays a batch from its seed", () => {
    const first = trainingBatch(seededRandom(4), 8, 0.5, "answers");
    expect(trainingBatch(seededRandom(4), 8, 0.5, "answers")).toEqual(first);
  });
});
