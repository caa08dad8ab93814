/**
 * `rllm dataset pull` for each paper suite, from a local Hub mirror (HF_ENDPOINT) serving its files in their real
 * format and schema (parquet written with hyparquet-writer, JSONL, CSV) at the benchmark's pinned revision.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchmarks } from "../../../benchmarks/registry.js";
import { pullHubDataset } from "../../../src/datasets/pull-hub-dataset.js";
import { startHubMirror, type HubMirror, type MirroredRepo } from "../../helpers/hub-mirror.js";

type Row = Record<string, unknown>;
const fixture = JSON.parse(readFileSync("test/fixtures/benchmarks/hub-rows.json", "utf8")) as { rows: Record<string, Row[]> };

/** A parquet file of `rows` with these column types, as the `datasets` library writes them (strings, int64, list<string>). */
function parquet(rows: Row[], columns: Record<string, "string" | "int64" | "list">): Uint8Array {
  const names = Object.keys(columns);
  const schema: Record<string, unknown>[] = [{ name: "schema", num_children: names.length }];
  for (const name of names) {
    if (columns[name] === "list") {
      schema.push({ name, repetition_type: "OPTIONAL", num_children: 1, converted_type: "LIST" }, { name: "list", repetition_type: "REPEATED", num_children: 1 }, { name: "element", type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" });
    } else if (columns[name] === "int64") schema.push({ name, type: "INT64", repetition_type: "OPTIONAL" });
    else schema.push({ name, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type: "OPTIONAL" });
  }
  const columnData = names.map((name) => ({ name, data: rows.map((row) => (columns[name] === "int64" ? BigInt(row[name] as number) : row[name])) }));
  return new Uint8Array(parquetWriteBuffer({ schema: schema as never, columnData: columnData as never }));
}
const jsonl = (rows: Row[]) => rows.map((row) => JSON.stringify(row)).join("\n") + "\n";
const strings = (...names: string[]) => Object.fromEntries(names.map((name) => [name, "string" as const]));

const rows = fixture.rows;
const humanEvalColumns = strings("task_id", "prompt", "canonical_solution", "test", "entry_point");
const mmluColumns = { question_id: "int64", question: "string", options: "list", answer: "string", answer_index: "int64", cot_content: "string", category: "string", src: "string" } as const;
// One placeholder row in gpqa_diamond.csv's columns: GPQA's questions are not shown in plain text, here or anywhere.
const gpqaCsv =
  '"Question","Correct Answer","Incorrect Answer 1","Incorrect Answer 2","Incorrect Answer 3","Explanation","Subdomain","Record ID","High-level domain"\n' +
  '"Placeholder for the pull test, not a GPQA question:\nwhich is largest?","four","one","two","three","-","-","recPlaceholder1","Physics"\n';

/** Each benchmark's files (path → bytes), and what its first pulled task must be. */
const suites: { name: string; files: Record<string, Uint8Array | string>; rows: number; first: { id: string; truth: string } }[] = [
  { name: "aime24", files: { "data/train-00000-of-00001.parquet": parquet(rows.aime24!, { id: "int64", ...strings("problem", "solution", "answer", "url", "year") }) }, rows: 3, first: { id: "aime24-60", truth: "204" } },
  { name: "aime25", files: { "data/train-00000-of-00001.parquet": parquet(rows.aime25!, { problem_idx: "int64", problem: "string", answer: "int64" }) }, rows: 3, first: { id: "aime25-1", truth: "70" } },
  { name: "hmmt25", files: { "data/train-00000-of-00001.parquet": parquet(rows.hmmt25!, { problem_idx: "int64", problem: "string", answer: "string", problem_type: "list" }) }, rows: 3, first: { id: "hmmt25-1", truth: "103" } },
  { name: "math500", files: { "test.jsonl": jsonl(rows.math500!) }, rows: 1, first: { id: "test/precalculus/807.json", truth: "\\left( 3, \\frac{\\pi}{2} \\right)" } },
  {
    name: "gsm8k",
    files: { "main/test-00000-of-00001.parquet": parquet(rows.gsm8k!, strings("question", "answer")), "main/train-00000-of-00001.parquet": parquet(rows.gsm8k!.slice(0, 1), strings("question", "answer")) },
    rows: 3,
    first: { id: "gsm8k-test-0", truth: "18" },
  },
  { name: "humaneval", files: { "openai_humaneval/test-00000-of-00001.parquet": parquet(rows.humaneval!, humanEvalColumns) }, rows: 3, first: { id: "HumanEval/0", truth: "" } },
  { name: "humanevalplus", files: { "data/test-00000-of-00001.parquet": parquet(rows.humanevalplus!, humanEvalColumns) }, rows: 2, first: { id: "HumanEval/39", truth: "" } },
  {
    name: "mbppplus",
    files: {
      "data/test-00000-of-00001-d5781c9c51e02795.parquet": parquet(rows.mbppplus!, { task_id: "int64", ...strings("code", "prompt", "source_file"), test_imports: "list", test_list: "list", test: "string" }),
    },
    rows: 2,
    first: { id: "Mbpp/455", truth: "" },
  },
  {
    name: "mmlu-pro",
    files: { "data/test-00000-of-00001.parquet": parquet(rows["mmlu-pro"]!, mmluColumns), "data/validation-00000-of-00001.parquet": parquet(rows["mmlu-pro"]!.slice(0, 1), mmluColumns) },
    rows: 3,
    first: { id: `mmlu-pro-${rows["mmlu-pro"]![0]!.question_id}`, truth: String(rows["mmlu-pro"]![0]!.answer) },
  },
  {
    name: "livecodebench",
    files: { "test.jsonl": jsonl(rows.livecodebench!), "test2.jsonl": "", "test3.jsonl": "", "test4.jsonl": "", "test5.jsonl": "", "test6.jsonl": "" },
    rows: 1,
    first: { id: "1873_A", truth: "" },
  },
  { name: "gpqa-diamond", files: { "gpqa_diamond.csv": gpqaCsv }, rows: 1, first: { id: "recPlaceholder1", truth: "" } },
];

let mirror: HubMirror;
beforeAll(async () => {
  const repos: MirroredRepo[] = [];
  for (const suite of suites) {
    const hub = (await benchmarks.load(suite.name)).hub!;
    repos.push({ repo: hub.repo, revision: hub.revision!, files: suite.files, ...(hub.gated ? { token: "hf_test_token" } : {}) });
  }
  mirror = await startHubMirror(repos);
});
afterAll(() => mirror.close());

describe("pulling the paper suites from a Hub mirror", () => {
  it.each(suites.map((suite) => [suite.name, suite] as const))("%s: pulls its files at the pinned revision and loads the rows as tasks", async (_name, suite) => {
    const benchmark = await benchmarks.load(suite.name);
    const home = mkdtempSync(path.join(os.tmpdir(), "rllm-pull-"));
    await pullHubDataset(benchmark, { home, endpoint: mirror.endpoint, token: benchmark.hub!.gated ? "hf_test_token" : "" });
    expect(mirror.requests.some((request) => request.url.includes(`/resolve/${benchmark.hub!.revision}/`))).toBe(true);
    const tasks = await benchmark.loadTasks({ home });
    expect(tasks).toHaveLength(suite.rows);
    expect(tasks[0]!.id).toBe(suite.first.id);
    if (suite.first.truth !== "") expect(String(tasks[0]!.metadata.ground_truth)).toBe(suite.first.truth);
  });

  it("gpqa-diamond: without HF_TOKEN the gated file is refused with what to do; the options are shuffled with the correct one's letter", async () => {
    const benchmark = await benchmarks.load("gpqa-diamond");
    await expect(pullHubDataset(benchmark, { home: mkdtempSync(path.join(os.tmpdir(), "rllm-pull-")), endpoint: mirror.endpoint, token: "" })).rejects.toThrow(
      /HTTP 401: Idavidrein\/gpqa is gated; accept its terms on its Hub page and set HF_TOKEN/,
    );
    const home = mkdtempSync(path.join(os.tmpdir(), "rllm-pull-"));
    await pullHubDataset(benchmark, { home, endpoint: mirror.endpoint, token: "hf_test_token" });
    const [task] = await benchmark.loadTasks({ home });
    const choices = task!.metadata.choices as string[];
    expect([...choices].sort()).toEqual(["four", "one", "three", "two"]);
    expect(choices["ABCD".indexOf(String(task!.metadata.ground_truth))]).toBe("four");
    expect(task!.instruction).toMatch(/^Answer the following multiple choice question\. The last line of your response should be of the following format: 'Answer: \$LETTER'/);
  });

  it("livecodebench: the pulled row carries its decoded private tests and release", async () => {
    const benchmark = await benchmarks.load("livecodebench");
    const home = mkdtempSync(path.join(os.tmpdir(), "rllm-pull-"));
    await pullHubDataset(benchmark, { home, endpoint: mirror.endpoint, token: "" });
    const [task] = await benchmark.loadTasks({ home, split: "release_v1" });
    expect(task!.metadata).toMatchObject({ release: 1, fn_name: null });
    expect(task!.metadata.tests).toHaveLength(5);
    expect(await benchmark.loadTasks({ home, split: "2024-01-01.." })).toHaveLength(0);
  });
});
