import { describe, expect, it } from "vitest";
import { arithQuestion, arithSolutionText } from "../../../benchmarks/arith/arith-problem.js";
import { applyChatTemplate } from "../../../src/models/tiny/chat-template.js";
import { seededRandom } from "../../../src/models/tiny/random.js";
import { decodeTokens } from "../../../src/models/tiny/tokenizer.js";
import { drawProblem, judgeExample, residueOf, residueReply, solveExample, trainingBatch, wrongSolution } from "../../../src/models/tiny/training-data.js";
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

  it("checks answers mod 10: the operations on last digits, each answer's residue, a verdict, then the ratings", () => {
    // 5-6*3: 6*3=18 ends in 8; 5-8=-3 is 7 mod 10 (so is 5-18=-13); -16 is 4 mod 10, -13 is 7.
    expect(residueReply("5-6*3", "-16", "-13")).toBe("6*3=18%8 5-8=-3%7 A:-16%4/7 no B:-13%7/7 ok <rating_A>1</rating_A><rating_B>10</rating_B>");
    expect(residueReply("7+6+9", "22", "")).toBe("7+6=13%3 3+9=12%2 A:22%2/2 ok B:? no <rating_A>10</rating_A><rating_B>1</rating_B>");
    // A wrong answer off by ten passes the check: the judge cannot tell it from the right one.
    expect(residueReply("1-2-1", "-12", "-2")).toMatch(/A:-12%8\/8 ok B:-2%8\/8 ok <rating_A>10<\/rating_A><rating_B>10<\/rating_B>$/);
    expect([residueOf(-13), residueOf(40), residueOf(-40), residueOf(9)]).toEqual([7, 0, 0, 9]);
  });

  it("slips one step of a solve example at about the requested rate, carrying the slip on to the answer", () => {
    const random = seededRandom(9);
    let slipped = 0;
    for (let index = 0; index < 1000; index++) {
      const problem = drawProblem(random, "train");
      const example = solveExample(problem, random, 0.2);
      const reply = decodeTokens(example.tokens.slice(example.lossMask.indexOf(1)));
      if (reply === arithSolutionText(problem)) continue;
      slipped += 1;
      expect(boxedInteger(reply)).not.toBe(problem.answer);
      expect(Math.abs(boxedInteger(reply)! - problem.answer)).toBeLessThanOrEqual(3 * 9);
    }
    expect(slipped).toBeGreaterThan(160);
    expect(slipped).toBeLessThan(240);
  });

  it("trains on exactly the prompt tokens the chat template serves for the tournament's judge prompt", () => {
    const random = seededRandom(2);
    let missing = 0;
    for (let index = 0; index < 100; index++) {
      const problem = drawProblem(random, "train");
      const example = judgeExample(problem, random, "residues");
      const text = decodeTokens(example.tokens, true);
      // The served prompt holds each candidate's final answer, or nothing when the candidate gave none.
      const [, boxedA, boxedB] = /<\|A\|>(.*)<\|B\|>(.*?)<\|end\|>/.exec(text)!;
      const solutionText = (boxed: string) => (boxed ? `${boxed.slice(7, -1)} so ${boxed}` : "I could not finish.");
      const served = applyChatTemplate(pairJudgeMessages("math", arithQuestion(problem.expression), solutionText(boxedA), solutionText(boxedB)));
      const promptLength = example.lossMask.indexOf(1);
      expect(example.tokens.slice(0, promptLength)).toEqual(served);
      const ratings = parseRatings(text)!;
      // A right answer always passes; a wrong one passes only when its last digit is right; no answer never passes.
      const passes = (boxed: string) => boxed !== "" && residueOf(Number(boxed.slice(7, -1))) === residueOf(problem.answer);
      expect(ratings.ratingA).toBe(passes(boxedA) ? 10 : 1);
      expect(ratings.ratingB).toBe(passes(boxedB) ? 10 : 1);
      missing += Number(boxedA === "") + Number(boxedB === "");
    }
    expect(missing).toBeGreaterThan(0);
  });

  it("serves a solve prompt as trained and only trains on the reply", () => {
    const problem = drawProblem(seededRandom(3), "train");
    const example = solveExample(problem);
    const promptLength = example.lossMask.indexOf(1);
    expect(example.tokens.slice(0, promptLength)).toEqual(applyChatTemplate([{ role: "user", content: arithQuestion(problem.expression) }]));
    expect(decodeTokens(example.tokens.slice(promptLength))).toBe(arithSolutionText(problem));
  });

  it("replays a batch from its seed", () => {
    const options = { judgeFraction: 0.5, judgeFormat: "residues" as const, solveSlipRate: 0.2 };
    const first = trainingBatch(seededRandom(4), 8, options);
    expect(trainingBatch(seededRandom(4), 8, options)).toEqual(first);
  });
});
