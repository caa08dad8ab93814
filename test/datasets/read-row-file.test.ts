import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import { afterAll, describe, expect, it } from "vitest";
import { readRowFile } from "../../src/datasets/read-row-file.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-rows-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
const file = (name: string, content: string | Buffer) => {
  const target = path.join(directory, name);
  writeFileSync(target, content);
  return target;
};
const rows = [
  { id: "a", question: "1+1", ground_truth: "2" },
  { id: "b", question: "2+2", ground_truth: "4" },
];

describe("readRowFile", () => {
  it("reads the same rows from JSONL, JSON, CSV and parquet, each with where it came from", async () => {
    const jsonl = file("rows.jsonl", `${JSON.stringify(rows[0])}\n\n${JSON.stringify(rows[1])}\n`);
    const json = file("rows.json", JSON.stringify(rows));
    const csv = file("rows.csv", "id,question,ground_truth\na,1+1,2\nb,2+2,4\n");
    const columns = ["id", "question", "ground_truth"] as const;
    const parquet = file("rows.parquet", Buffer.from(parquetWriteBuffer({ columnData: columns.map((name) => ({ name, data: rows.map((row) => row[name]) })) })));
    for (const source of [jsonl, json, csv, parquet]) expect((await readRowFile(source)).map((row) => row.value)).toEqual(rows);
    expect((await readRowFile(jsonl)).map((row) => row.where)).toEqual([`${jsonl}:1`, `${jsonl}:3`]);
    expect((await readRowFile(csv)).map((row) => row.where)).toEqual([`${csv}:2`, `${csv}:3`]);
    expect((await readRowFile(parquet)).map((row) => row.where)).toEqual([`${parquet}: row 1`, `${parquet}: row 2`]);
  });

  it("parses a CSV cell that holds JSON, and leaves other cells as text", async () => {
    const csv = file("chat.csv", 'id,messages,note\nc1,"[{""role"": ""user"", ""content"": ""hi""}]",[not json\n');
    expect((await readRowFile(csv))[0]!.value).toEqual({ id: "c1", messages: [{ role: "user", content: "hi" }], note: "[not json" });
  });

  it("marks a JSONL line that is not JSON as unreadable, to be reported with the other bad rows, and refuses unknown file types", async () => {
    const bad = file("bad.jsonl", '{"id": "a"}\n{"id": \n');
    expect((await readRowFile(bad))[1]).toEqual({ value: undefined, where: `${bad}:2`, position: 2, unreadable: expect.stringMatching(/^not valid JSON/) });
    await expect(readRowFile(file("rows.txt", "x"))).rejects.toThrow('unknown file type ".txt"');
    await expect(readRowFile(path.join(directory, "absent.jsonl"))).rejects.toThrow("no such file");
  });
});
