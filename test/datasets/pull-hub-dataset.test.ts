import { afterAll, beforeAll, describe, expect, it } from "vitest";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import type { Benchmark } from "../../src/core/benchmark.js";
import { pullHubDataset, DatasetUnavailableError } from "../../src/datasets/pull-hub-dataset.js";
import { datasetDirectory, findCachedSplit, readPullManifest } from "../../src/datasets/dataset-cache.js";

// A real parquet file, served the way the hub serves /datasets/<repo>/resolve/main/<file>.
const parquet = parquetWriteBuffer({
  columnData: [
    { name: "problem", data: ["1+1?", "2+3?", "7*6?"], type: "STRING" },
    { name: "answer", data: ["2", "5", "42"], type: "STRING" },
  ],
});
const served: string[] = [];
let server: http.Server;
let endpoint: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    served.push(request.url ?? "");
    if (request.url === "/datasets/org/tiny/resolve/main/data/test.parquet") {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      response.end(Buffer.from(parquet));
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const benchmark = (files: Record<string, string[]>): Benchmark => ({
  name: "tiny",
  description: "test",
  defaultCookbook: "qa",
  bundledSample: "benchmarks/tiny/sample.jsonl",
  loadTasks: async () => [],
  hub: {
    repo: "org/tiny",
    files,
    toRow: (row, index, split) => ({ id: `${split}-${index}`, question: row.problem, ground_truth: row.answer }),
  },
});

describe("pullHubDataset", () => {
  it("reads the parquet rows, converts them and caches the split as JSONL with a manifest", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "rllm-home-"));
    const manifest = await pullHubDataset(benchmark({ test: ["data/test.parquet"] }), { home, endpoint });
    expect(manifest.splits.test!.rows).toBe(3);
    const file = findCachedSplit(home, "tiny", "test")!;
    const rows = readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(rows[2]).toEqual({ id: "test-2", question: "7*6?", ground_truth: "42" });
    expect(readPullManifest(home, "tiny")?.repo).toBe("org/tiny");
  });

  it("fails with a message that points to the bundled sample when a file is missing", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "rllm-home-"));
    const pull = pullHubDataset(benchmark({ test: ["data/missing.parquet"] }), { home, endpoint });
    await expect(pull).rejects.toBeInstanceOf(DatasetUnavailableError);
    await expect(pull).rejects.toThrow(/HTTP 404.*bundled sample \(benchmarks\/tiny\/sample\.jsonl\) works offline/);
    expect(findCachedSplit(home, "tiny", "test")).toBeUndefined();
  });

  it("advises rllm eval alone only where the embedded model fits the sample, and an endpoint otherwise", () => {
    const advice = (fits: boolean | undefined) => new DatasetUnavailableError("geo3k", "http://hub/x", "HTTP 404", "benchmarks/geo3k/sample.jsonl", fits).message;
    expect(advice(true)).toContain("`rllm dataset show geo3k` shows it, and `rllm eval geo3k` runs it on the embedded model.");
    expect(advice(false)).toContain("`rllm eval geo3k --base-url <url> --model <name>` runs it on an OpenAI-compatible endpoint of yours (its prompts do not fit");
    expect(advice(undefined)).toContain("`rllm eval geo3k --base-url <url> --model <name>` runs it on an OpenAI-compatible endpoint of yours.");
    expect(new DatasetUnavailableError("x", "http://hub/x", "HTTP 404", undefined).message).toContain("no bundled sample; pass your own rows with --data");
  });

  it("fails clearly when the network is unreachable", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "rllm-home-"));
    // Port 9 on loopback: nothing listens there, like a machine with no route out.
    const pull = pullHubDataset(benchmark({ test: ["data/test.parquet"] }), { home, endpoint: "http://127.0.0.1:9" });
    await expect(pull).rejects.toThrow(/network unreachable.*works offline/);
  });

  it("leaves no empty dataset folder behind when the pull fails", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "rllm-home-"));
    await expect(pullHubDataset(benchmark({ test: ["data/test.parquet"] }), { home, endpoint: "http://127.0.0.1:9" })).rejects.toThrow();
    expect(existsSync(datasetDirectory(home, "tiny"))).toBe(false);
  });
});
