import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lastUserText, startScriptedServer, type ScriptedServer } from "../helpers/scripted-openai-server.js";
import { runCli } from "../helpers/run-cli.js";

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer((body) => ({ text: `\\boxed{${lastUserText(body).length}}` }));
});
afterAll(() => server.close());

const temporary = () => mkdtempSync(path.join(os.tmpdir(), "rllm-evalux-"));
const readEpisodes = (directory: string) =>
  readFileSync(path.join(directory, "episodes.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
const summaryOf = (directory: string) => JSON.parse(readFileSync(path.join(directory, "summary.json"), "utf8"));
/** An episode without what legitimately differs between a live and a cached run: timings and the cached marks. */
const comparable = (episode: any) => ({
  ...episode,
  timings: undefined,
  trajectories: episode.trajectories.map((trajectory: any) => ({ ...trajectory, steps: trajectory.steps.map(({ cached: _cached, ...step }: any) => step) })),
});
const base = () => ["eval", "qa", "--base-url", server.url, "--model", "scripted", "--limit", "6", "--temperature", "0", "--concurrency", "3"];

describe("rllm eval --cache", () => {
  it("makes no model call on a second identical run, and records the same episodes with cached steps", async () => {
    const home = temporary();
    const environment = { RLLM_HOME: home };
    const first = path.join(home, "first");
    expect((await runCli([...base(), "--cache", "--out", first], environment)).code).toBe(0);
    const callsBefore = server.requests.length;
    const second = path.join(home, "second");
    const result = await runCli([...base(), "--out", second], { ...environment, RLLM_CACHE: "1" });
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.length - callsBefore).toBe(0);
    const sortById = (episodes: any[]) => [...episodes].sort((a, b) => a.id.localeCompare(b.id));
    expect(sortById(readEpisodes(second)).map(comparable)).toEqual(sortById(readEpisodes(first)).map(comparable));
    expect(readEpisodes(second).every((episode: any) => episode.trajectories[0].steps[0].cached === true)).toBe(true);
    expect(summaryOf(second).cache).toEqual({ cachedCalls: 6, episodesWithCachedCalls: 6 });
    expect(result.stdout).toContain("cached calls");
  });

  it("runs from the cache with the endpoint gone: the pre-flight check only warns when --cache is on", async () => {
    const home = temporary();
    const environment = { RLLM_HOME: home };
    const live = await startScriptedServer((body) => ({ text: `\\boxed{${lastUserText(body).length}}` }));
    const flags = ["eval", "qa", "--base-url", live.url, "--model", "scripted", "--limit", "3", "--temperature", "0"];
    expect((await runCli([...flags, "--cache", "--out", path.join(home, "online")], environment)).code).toBe(0);
    await live.close();
    const offline = await runCli([...flags, "--cache", "--out", path.join(home, "offline")], environment);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stderr).toMatch(/warning: .*connection refused.*going on with the response cache/);
    expect(summaryOf(path.join(home, "offline")).cache).toEqual({ cachedCalls: 3, episodesWithCachedCalls: 3 });
    // Without --cache the same dead endpoint is refused at once.
    const refused = await runCli([...flags, "--out", path.join(home, "refused")], environment);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("connection refused");
  });

  it("reports a corrupt cache file, rebuilds it, and runs", async () => {
    const home = temporary();
    mkdirSync(path.join(home, "cache"));
    writeFileSync(path.join(home, "cache", "responses.sqlite"), "garbage ".repeat(1000));
    const result = await runCli([...base(), "--cache", "--out", path.join(home, "again")], { RLLM_HOME: home });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/cache file .* was corrupt .* rebuilt/);
  });
});

describe("rllm eval --prices / --max-cost", () => {
  it("stops before passing --max-cost, and resumes to the hand-computed total of every episode", async () => {
    const directory = temporary();
    const prices = path.join(directory, "prices.json");
    writeFileSync(prices, JSON.stringify({ scripted: { input: 1000, output: 2000 } }));
    const flags = ["eval", "qa", "--base-url", server.url, "--model", "scripted", "--limit", "6", "--concurrency", "1", "--prices", prices];
    const out = path.join(directory, "run");
    // Each reply costs about $0.1 (~100 prompt tokens at $1000 per million): $0.25 stops the run after two or three episodes.
    const first = await runCli([...flags, "--out", out, "--max-cost", "0.25"]);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/episodes not started: --max-cost 0.25 reached/);
    expect(summaryOf(out).status).toBe("incomplete");
    expect(summaryOf(out).cost.total).toBeLessThanOrEqual(0.25);
    expect(readEpisodes(out).length).toBeLessThan(6);
    const resumed = await runCli([...flags, "--out", out, "--resume"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const episodes = readEpisodes(out);
    expect(episodes).toHaveLength(6);
    // Hand-computed: every episode's prompt and completion tokens at $1000 and $2000 per million.
    const handTotal = episodes.reduce((sum: number, episode: any) => sum + (episode.usage.promptTokens * 1000 + episode.usage.completionTokens * 2000) / 1e6, 0);
    expect(summaryOf(out).cost.total).toBeCloseTo(handTotal, 12);
    expect(resumed.stdout).toMatch(/cost\s+\$/);
  });
});
