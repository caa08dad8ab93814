// Episode lines saved before the Score (top-level reward and isCorrect, the answer in artifacts.grade) still load.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readEpisodes } from "../../src/runs/episode-log.js";
import { summarizeRun } from "../../src/metrics/summarize-run.js";

const fixture = (name: string) => new URL(`../fixtures/${name}`, import.meta.url).pathname;
const arithEpisodes = readEpisodes(fixture("runs/format-1/episodes.jsonl"));
const oldLines = readFileSync(fixture("runs/format-1/episodes.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));

describe("format 1 episodes", () => {
  it("load reward and isCorrect as a scored Score, with the answer and explanation from artifacts.grade", () => {
    expect(arithEpisodes).toHaveLength(6);
    arithEpisodes.forEach((episode, index) => {
      const old = oldLines[index];
      expect(episode.score).toEqual({
        value: old.reward,
        isCorrect: old.isCorrect,
        status: "scored",
        answer: old.artifacts.grade.answer,
        explanation: old.artifacts.grade.explanation,
        signals: {},
      });
      expect(episode.artifacts.grade).toBeUndefined();
      expect(episode.artifacts.comparableAnswer).toBe(old.artifacts.comparableAnswer);
      expect("reward" in episode).toBe(false);
    });
  });

  it("load FinQA's unscored signal as an unscored Score and an infrastructure failure as unscored", () => {
    const [freeText, infra] = readEpisodes(fixture("episodes/format-1-finqa.jsonl"));
    expect(freeText!.score).toMatchObject({ status: "unscored", isCorrect: false, value: 0, answer: "up 20%" });
    expect(freeText!.score.explanation).toMatch(/free text/);
    expect(infra!.errorClass).toBe("infra_error");
    expect(infra!.score).toMatchObject({ status: "unscored", isCorrect: false });
  });

  it("summarise to the figures of the summary.json written with them", () => {
    const saved = JSON.parse(readFileSync(fixture("runs/format-1/summary.json"), "utf8"));
    const { formatVersion, status, ...summary } = { ...summarizeRun(arithEpisodes, 3, 2), status: "complete" };
    expect(formatVersion).toBe(2);
    expect(status).toBe(saved.status);
    expect(summary.metrics).toEqual(saved.metrics);
    expect(summary.counts).toEqual({ ...saved.counts, unscored: 0 });
    // infraRate is newer than format 1's summary.json: computed from the same counts, it is 0 there.
    expect({ errors: summary.errors, tokens: summary.tokens, latency: summary.latency }).toEqual({ errors: { ...saved.errors, infraRate: 0 }, tokens: saved.tokens, latency: saved.latency });
  });
});
