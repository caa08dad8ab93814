// The live view's server on 127.0.0.1: the page with its cursors, the updates past them, and the refusals.
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningHttpServer } from "../../src/http/start-http-server.js";
import { serveRunReport } from "../../src/view/serve-report.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-view-serve-"));
const episodes = path.join(directory, "episodes.jsonl");
const line = (attempt: number) => JSON.stringify({ id: `t:${attempt}`, taskId: "t", attempt, score: { value: 1, isCorrect: true, status: "scored" } }) + "\n";
let server: RunningHttpServer;

beforeAll(async () => {
  writeFileSync(episodes, line(0));
  server = await serveRunReport(directory, { host: "127.0.0.1", port: 0 });
});
afterAll(async () => {
  await server.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("serveRunReport", () => {
  it("serves the page with the cursors it was read up to, then only what was appended past them", async () => {
    const html = await (await fetch(`${server.origin}/`)).text();
    const data = /id="report-data">([^<]*)</.exec(html)![1]!;
    const payload = JSON.parse(gunzipSync(Buffer.from(data, "base64")).toString("utf8"));
    expect(payload.live.cursors.episodes).toEqual({ offset: line(0).length, line: 1 });
    appendFileSync(episodes, line(1));
    const update = await (await fetch(`${server.origin}/updates?episodes=${line(0).length}:1&metrics=0:0`)).json();
    expect(update.episodes.map((episode: { id: string }) => episode.id)).toEqual(["t:1"]);
    expect(update.cursors.episodes).toEqual({ offset: 2 * line(0).length, line: 2 });
  });

  it("answers 400 naming a malformed cursor, 404 elsewhere and 405 to anything but GET", async () => {
    const malformed = await fetch(`${server.origin}/updates?episodes=abc&metrics=0:0`);
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.message).toContain("query parameter episodes must be <offset>:<line>");
    expect((await fetch(`${server.origin}/episodes.jsonl`)).status).toBe(404);
    expect((await fetch(`${server.origin}/`, { method: "POST" })).status).toBe(405);
  });
});
