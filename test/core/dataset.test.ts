import { describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { InputError } from "../../src/core/errors/input-error.js";
import { z } from "zod";
import { assertUniqueIds, loadQaTasks, readUniqueJsonlRows, RowIdSchema } from "../../src/core/dataset.js";

function writeRows(lines: string[]): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "rows-")), "rows.jsonl");
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}

describe("loadQaTasks", () => {
  it("turns rows into tasks and keeps the whole row as metadata", () => {
    const file = writeRows(['{"id": 7, "question": "2+2?", "ground_truth": 4, "level": "easy"}']);
    expect(loadQaTasks(file)).toEqual([{ id: "7", instruction: "2+2?", metadata: { id: "7", question: "2+2?", ground_truth: "4", level: "easy" } }]);
  });

  it("names the file, line and field of every malformed row", () => {
    const file = writeRows([
      '{"id": "a", "question": "ok", "ground_truth": "1"}',
      '{"id": "b", "ground_truth": "1"}',
      "not json",
      '{"id": "d", "question": "q", "ground_truth": {"x": 1}}',
    ]);
    let message = "";
    try {
      loadQaTasks(file);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("3 bad row(s)");
    expect(message).toContain(`${file}:2: field "question"`);
    expect(message).toContain(`${file}:3: not valid JSON`);
    expect(message).toContain(`${file}:4: field "ground_truth"`);
  });

  it("rejects duplicate ids, which would merge two tasks' episodes, naming both lines", () => {
    const file = writeRows(['{"id": "a", "question": "x", "ground_truth": "1"}', "", '{"id": "a", "question": "y", "ground_truth": "2"}']);
    expect(() => loadQaTasks(file)).toThrow(`${file}:3: field "id": duplicate id "a" (first used on line 1)`);
  });

  it("reports a duplicate id together with the JSON and schema errors of the same file, in line order", () => {
    const file = writeRows([
      '{"id": "a", "question": "x", "ground_truth": "1"}',
      "not json",
      '{"id": "a", "question": "y", "ground_truth": "2"}',
      '{"id": "d", "ground_truth": "1"}',
      '{"id": "a", "question": "z", "ground_truth": "3"}',
    ]);
    expect(() => loadQaTasks(file)).toThrow(
      [
        `4 bad row(s) in ${file}:`,
        `${file}:2: not valid JSON (Unexpected token 'o', "not json" is not valid JSON)`,
        `${file}:3: field "id": duplicate id "a" (first used on line 1)`,
        `${file}:4: field "question": Invalid input: expected string, received undefined`,
        `${file}:5: field "id": duplicate id "a" (first used on line 1)`,
      ].join("\n"),
    );
  });

  it("names the first ten bad rows and counts the rest", () => {
    const file = writeRows(Array.from({ length: 12 }, () => '{"id": "a", "question": "x", "ground_truth": "1"}'));
    const message = (() => {
      try {
        loadQaTasks(file);
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message.split("\n")).toHaveLength(12);
    expect(message).toContain(`11 bad row(s) in ${file}:`);
    expect(message).toContain(`${file}:11: field "id": duplicate id "a" (first used on line 1)`);
    expect(message).toContain("... and 1 more bad rows");
  });

  it("reads a file saved with a UTF-8 byte-order mark", () => {
    const file = writeRows(['\uFEFF{"id": "a", "question": "x", "ground_truth": "1"}']);
    expect(loadQaTasks(file).map((task) => task.id)).toEqual(["a"]);
  });

  it("names a missing id as a required field", () => {
    const file = writeRows(['{"question": "x", "ground_truth": "1"}']);
    expect(() => loadQaTasks(file)).toThrow(`${file}:1: field "id": required`);
  });

  it("refuses a directory with a usage error instead of a read failure", () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), "rows-"));
    expect(() => loadQaTasks(directory)).toThrow(InputError);
    expect(() => loadQaTasks(directory)).toThrow(`${directory}: is a directory`);
  });
});

describe("readUniqueJsonlRows", () => {
  const schema = z.object({ id: RowIdSchema, problem: z.string() });

  it("reads a benchmark's rows, refusing a repeated id on the lines it was found", () => {
    const file = writeRows(['{"id": 1, "problem": "p"}', '{"id": "2", "problem": "q"}', '{"id": "1", "problem": "r"}']);
    expect(() => readUniqueJsonlRows(file, schema)).toThrow(`${file}:3: field "id": duplicate id "1" (first used on line 1)`);
  });
});

describe("assertUniqueIds", () => {
  it("names every repeated id at once, by row number without lines", () => {
    const rows = ["a", "b", "a", "b", "c"].map((id) => ({ id }));
    expect(() => assertUniqueIds("rows.json", rows)).toThrow(
      '2 bad row(s) in rows.json:\nrows.json: row 3: field "id": duplicate id "a" (first used on row 1)\nrows.json: row 4: field "id": duplicate id "b" (first used on row 2)',
    );
  });
});
