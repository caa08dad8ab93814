import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EpisodeSchema } from "../../src/core/episode.js";
import { appendEpisode, readEpisodes } from "../../src/runs/episode-log.js";

const episode = (attempt: number) => EpisodeSchema.parse({ id: `t:${attempt}`, taskId: "t", attempt });

describe("episodes.jsonl after a kill mid-write", () => {
  it("keeps the episode appended after a torn line, and every earlier one", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-episodes-")), "episodes.jsonl");
    const whole = `${JSON.stringify(episode(0))}\n${JSON.stringify(episode(1))}\n`;
    const fragment = JSON.stringify(episode(2)).slice(0, 40);
    writeFileSync(file, whole + fragment);
    appendEpisode(file, episode(2));
    appendEpisode(file, episode(3));
    expect(readEpisodes(file).map((read) => read.id)).toEqual(["t:0", "t:1", "t:2", "t:3"]);
    expect(readFileSync(`${file}.torn`, "utf8")).toBe(`${fragment}\n`);
  });

  it("names the file and line of a bad line", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-episodes-")), "episodes.jsonl");
    writeFileSync(file, `${JSON.stringify(episode(0))}\n{"id":\n${JSON.stringify(episode(1))}\n`);
    expect(() => readEpisodes(file)).toThrow(`${file}:2: not valid JSON`);
  });
});
