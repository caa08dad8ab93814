import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import type { Benchmark } from "../../src/core/benchmark.js";
import { InputError } from "../../src/core/errors/input-error.js";
import { pullHubDataset, DatasetUnavailableError } from "../../src/datasets/pull-hub-dataset.js";
import { datasetDirectory, findCachedSplit, readPullManifest } from "../../src/datasets/dataset-cache.js";
import { startHubMirror, type HubMirror } from "../helpers/hub-mirror.js";

// A real parquet file, served the way the hub serves /datasets/<repo>/resolve/<revision>/<file>.
const parquet = parquetWriteBuffer({
  columnData: [
    { name: "problem", data: ["1+1?", "2+3?", "7*6?"], type: "STRING" },
    { name: "answer", data: ["2", "5", "42"], type: "STRING" },
  ],
});
// Three row groups of one row each, so a corrupted middle group names its row.
const grouped = new Uint8Array(
  parquetWriteBuffer({
    columnData: [{ name: "problem", data: ["aaaa", "bbbb", "cccc"], type: "STRING" }],
    rowGroupSize: 1,
    codec: "UNCOMPRESSED",
    statistics: false,
  }),
);
const corrupted = grouped.slice();
const middle = Buffer.from(corrupted).indexOf("bbbb");
corrupted.fill(0xff, middle - 12, middle + 4);

const revision = "0123456789abcdef0123456789abcdef01234567";
let mirror: HubMirror;

beforeAll(async () => {
  mirror = await startHubMirror([
    {
      repo: "org/tiny",
      revision,
      files: {
        "data/test.parquet": new Uint8Array(parquet),
        "data/train-00000-of-00002.parquet": new Uint8Array(parquet),
        "data/train-00001-of-00002.parquet": new Uint8Array(parquet),
        "data/truncated.parquet": new Uint8Array(parquet).slice(0, parquet.byteLength - 30),
        "data/corrupted.parquet": corrupted,
        "data/rows.jsonl": '{"problem": "1+1?", "answer": "2"}\n{"problem": "oops"\n',
        "data/rows.csv": 'problem,answer\n"multi\nline",7\n',
      },
    },
    { repo: "org/gated", revision, files: { "test.csv": "problem,answer\n1+1?,2\n" }, token: "hf_secret" },
  ]);
});
afterAll(() => mirror.close());

const benchmark = (files: Record<string, string[]>, hub: Partial<NonNullable<Benchmark["hub"]>> = {}): Benchmark => ({
  name: "tiny",
  description: "test",
  defaultCookbook: "qa",
  bundledSample: "benchmarks/tiny/sample.jsonl",
  loadTasks: async () => [],
  hub: {
    repo: "org/tiny",
    revision,
    files,
    toRow: (row, index, split) => ({ id: `${split}-${index}`, question: row.problem, ground_truth: row.answer }),
    ...hub,
  },
});
const home = () => mkdtempSync(path.join(os.tmpdir(), "rllm-home-"));
const cachedRows = (where: string, split: string) =>
  readFileSync(findCachedSplit(where, "tiny", split)!, "utf8").trim().split("\n").map((line) => JSON.parse(line));

describe("pullHubDataset", () => {
  it("reads the parquet rows at the pinned revision, converts them and caches the split as JSONL with a manifest", async () => {
    const where = home();
    const manifest = await pullHubDataset(benchmark({ test: ["data/test.parquet"] }), { home: where, endpoint: mirror.endpoint });
    expect(manifest.splits.test!.rows).toBe(3);
    expect(cachedRows(where, "test")[2]).toEqual({ id: "test-2", question: "7*6?", ground_truth: "42" });
    expect(readPullManifest(where, "tiny")).toMatchObject({ repo: "org/tiny", revision });
    expect(mirror.requests.at(-1)!.url).toBe(`/datasets/org/tiny/resolve/${revision}/data/test.parquet`);
  });

  it("expands a file pattern through the Hub's tree listing, in name order", async () => {
    const where = home();
    const manifest = await pullHubDataset(benchmark({ train: ["data/train-*.parquet"] }), { home: where, endpoint: mirror.endpoint });
    expect(manifest.splits.train).toEqual({ rows: 6, files: ["data/train-00000-of-00002.parquet", "data/train-00001-of-00002.parquet"] });
    expect(cachedRows(where, "train").map((row) => row.id)).toEqual(["train-0", "train-1", "train-2", "train-3", "train-4", "train-5"]);
  });

  it("reads CSV files with quoted multi-line cells", async () => {
    const where = home();
    await pullHubDataset(benchmark({ test: ["data/rows.csv"] }), { home: where, endpoint: mirror.endpoint });
    expect(cachedRows(where, "test")).toEqual([{ id: "test-0", question: "multi\nline", ground_truth: "7" }]);
  });

  it("names the file and line of a JSONL row that is not JSON", async () => {
    const pull = pullHubDataset(benchmark({ test: ["data/rows.jsonl"] }), { home: home(), endpoint: mirror.endpoint });
    await expect(pull).rejects.toThrow(InputError);
    await expect(pull).rejects.toThrow(/data\/rows\.jsonl:2: not valid JSON/);
  });

  it("names the file of a truncated parquet file", async () => {
    const pull = pullHubDataset(benchmark({ test: ["data/truncated.parquet"] }), { home: home(), endpoint: mirror.endpoint });
    await expect(pull).rejects.toThrow(/data\/truncated\.parquet: row 0: not a readable parquet file, truncated/);
  });

  it("names the file and row of a corrupted parquet row group", async () => {
    const pull = pullHubDataset(benchmark({ test: ["data/corrupted.parquet"] }), { home: home(), endpoint: mirror.endpoint });
    await expect(pull).rejects.toThrow(/data\/corrupted\.parquet: row 1: rows 1-1 cannot be read/);
  });

  it("names the file and row a benchmark's converter refuses", async () => {
    const refusing = benchmark({ test: ["data/test.parquet"] }, {
      toRow: (row) => {
        if (row.answer === "5") throw new Error('field "answer": not an integer');
        return row;
      },
    });
    await expect(pullHubDataset(refusing, { home: home(), endpoint: mirror.endpoint })).rejects.toThrow(/data\/test\.parquet: row 1: field "answer"/);
  });

  it("sends HF_TOKEN as a bearer token and says how to get access to a gated dataset without one", async () => {
    const gated = benchmark({ test: ["test.csv"] }, { repo: "org/gated", gated: true });
    const refused = pullHubDataset(gated, { home: home(), endpoint: mirror.endpoint, token: "" });
    await expect(refused).rejects.toThrow(/HTTP 401: org\/gated is gated; accept its terms on its Hub page and set HF_TOKEN/);
    const wrong = pullHubDataset(gated, { home: home(), endpoint: mirror.endpoint, token: "hf_other" });
    await expect(wrong).rejects.toThrow(/the token in HF_TOKEN has no access/);
    const where = home();
    await pullHubDataset(gated, { home: where, endpoint: mirror.endpoint, token: "hf_secret" });
    expect(cachedRows(where, "test")).toEqual([{ id: "test-0", question: "1+1?", ground_truth: "2" }]);
    expect(mirror.requests.at(-1)!.authorization).toBe("Bearer hf_secret");
  });

  it("fails with a message that points to the bundled sample when a file is missing", async () => {
    const where = home();
    const pull = pullHubDataset(benchmark({ test: ["data/missing.parquet"] }), { home: where, endpoint: mirror.endpoint });
    await expect(pull).rejects.toBeInstanceOf(DatasetUnavailableError);
    await expect(pull).rejects.toThrow(/HTTP 404.*bundled sample \(benchmarks\/tiny\/sample\.jsonl\) works offline/);
    expect(findCachedSplit(where, "tiny", "test")).toBeUndefined();
  });

  it("advises rllm eval alone only where the embedded model fits the sample, and an endpoint otherwise", () => {
    const advice = (fits: boolean | undefined) => new DatasetUnavailableError("geo3k", "http://hub/x", "HTTP 404", "benchmarks/geo3k/sample.jsonl", fits).message;
    expect(advice(true)).toContain("`rllm dataset show geo3k` shows it, and `rllm eval geo3k` runs it on the embedded model.");
    expect(advice(false)).toContain("`rllm eval geo3k --base-url <url> --model <name>` runs it on an OpenAI-compatible endpoint of yours (its prompts do not fit");
    expect(advice(undefined)).toContain("`rllm eval geo3k --base-url <url> --model <name>` runs it on an OpenAI-compatible endpoint of yours.");
    expect(new DatasetUnavailableError("x", "http://hub/x", "HTTP 404", undefined).message).toContain("no bundled sample; pass your own rows with --data");
  });

  it("fails clearly when the network is unreachable", async () => {
    // Port 9 on loopback: nothing listens there, like a machine with no route out.
    const pull = pullHubDataset(benchmark({ test: ["data/test.parquet"] }), { home: home(), endpoint: "http://127.0.0.1:9" });
    await expect(pull).rejects.toThrow(/network unreachable.*works offline/);
  });

  it("leaves no empty dataset folder behind when the pull fails", async () => {
    const where = home();
    await expect(pullHubDataset(benchmark({ test: ["data/test.parquet"] }), { home: where, endpoint: "http://127.0.0.1:9" })).rejects.toThrow();
    expect(existsSync(datasetDirectory(where, "tiny"))).toBe(false);
  });
});
