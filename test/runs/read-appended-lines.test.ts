import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readAppendedLines } from "../../src/runs/read-appended-lines.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "rllm-appended-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("readAppendedLines", () => {
  it("returns whole lines, leaves a torn last line for the next read, and reads on from where it stopped", () => {
    const file = path.join(directory, "growing.jsonl");
    writeFileSync(file, '{"a":1}\n{"b":2}\n{"c":');
    const first = readAppendedLines(file);
    expect(first.lines).toEqual([{ line: 1, text: '{"a":1}' }, { line: 2, text: '{"b":2}' }]);
    expect(first.cursor).toEqual({ offset: 16, line: 2 });
    expect(readAppendedLines(file, first.cursor).lines).toEqual([]);
    appendFileSync(file, '3}\n\n{"d":4}\n');
    const second = readAppendedLines(file, first.cursor);
    expect(second.lines).toEqual([{ line: 3, text: '{"c":3}' }, { line: 5, text: '{"d":4}' }]);
    expect(second.cursor).toEqual({ offset: 33, line: 5 });
  });

  it("does not split a multi-byte character cut by an unfinished write", () => {
    const file = path.join(directory, "utf8.jsonl");
    const line = Buffer.from('{"x":"é"}\n', "utf8");
    writeFileSync(file, Buffer.concat([line, line.subarray(0, 7)]));
    const first = readAppendedLines(file);
    expect(first.lines.map((entry) => entry.text)).toEqual(['{"x":"é"}']);
    appendFileSync(file, line.subarray(7));
    expect(readAppendedLines(file, first.cursor).lines).toEqual([{ line: 2, text: '{"x":"é"}' }]);
  });

  it("reads a file rewritten shorter than the cursor from the start", () => {
    const file = path.join(directory, "rewritten.jsonl");
    writeFileSync(file, '{"a":1}\n{"b":2}\n');
    const cursor = readAppendedLines(file).cursor;
    writeFileSync(file, '{"z":0}\n');
    expect(readAppendedLines(file, cursor).lines).toEqual([{ line: 1, text: '{"z":0}' }]);
  });
});
