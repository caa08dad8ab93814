import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { JsonlAppender, readJsonl, repairTornTail } from "../../src/runs/append-only-jsonl.js";

const RowSchema = z.object({ id: z.number() });

function logFile(content: string | Buffer): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-jsonl-")), "log.jsonl");
  writeFileSync(file, content);
  return file;
}

describe("repairTornTail", () => {
  it("cuts a fragment without its newline and keeps it in <file>.torn", () => {
    const file = logFile('{"id":1}\n{"id":2}\n{"id":3,"na');
    expect(repairTornTail(file)).toBe('{"id":3,"na');
    expect(readFileSync(file, "utf8")).toBe('{"id":1}\n{"id":2}\n');
    expect(readFileSync(`${file}.torn`, "utf8")).toBe('{"id":3,"na\n');
  });

  it("appends to an older .torn instead of overwriting it", () => {
    const file = logFile('{"id":1}\n{"id":2,');
    writeFileSync(`${file}.torn`, '{"id":0,"x\n');
    repairTornTail(file);
    expect(readFileSync(`${file}.torn`, "utf8")).toBe('{"id":0,"x\n{"id":2,\n');
  });

  it("keeps a whole record that only lost its newline, and completes the line", () => {
    const file = logFile('{"id":1}\n{"id":2}');
    expect(repairTornTail(file)).toBeUndefined();
    expect(readFileSync(file, "utf8")).toBe('{"id":1}\n{"id":2}\n');
    expect(existsSync(`${file}.torn`)).toBe(false);
  });

  it("cuts by bytes, so a kill inside a multi-byte character leaves the earlier lines intact", () => {
    const whole = Buffer.from('{"id":1,"text":"é"}\n', "utf8");
    const torn = Buffer.from('{"id":2,"text":"é', "utf8").subarray(0, -1);
    const file = logFile(Buffer.concat([whole, torn]));
    repairTornTail(file);
    expect(readFileSync(file)).toEqual(whole);
  });

  it("leaves a file that ends with a newline, or is empty or absent, untouched", () => {
    const file = logFile('{"id":1}\n');
    expect(repairTornTail(file)).toBeUndefined();
    expect(readFileSync(file, "utf8")).toBe('{"id":1}\n');
    expect(repairTornTail(logFile(""))).toBeUndefined();
    expect(repairTornTail(path.join(os.tmpdir(), "rllm-no-such-log.jsonl"))).toBeUndefined();
  });
});

describe("JsonlAppender", () => {
  it("starts the first new record on a line of its own after a torn tail", () => {
    const file = logFile('{"id":1}\n{"id":2,"par');
    const log = new JsonlAppender<{ id: number }>(file);
    log.append({ id: 2 });
    log.append({ id: 3 });
    log.close();
    expect(readJsonl(file, RowSchema).map((line) => line.record.id)).toEqual([1, 2, 3]);
  });

  it("writes the records queued in one turn together, and resolves each one's promise only once they are in the file", async () => {
    const file = logFile("");
    const log = new JsonlAppender<{ id: number }>(file);
    const committed = [1, 2, 3].map((id) => log.appendGrouped({ id }));
    // Queued, not yet written: the commit comes after this turn of the event loop.
    expect(readFileSync(file, "utf8")).toBe("");
    await committed[0];
    expect(readJsonl(file, RowSchema).map((line) => line.record.id)).toEqual([1, 2, 3]);
    await Promise.all(committed);
    await log.appendGrouped({ id: 4 });
    log.close();
    expect(readFileSync(file, "utf8")).toBe('{"id":1}\n{"id":2}\n{"id":3}\n{"id":4}\n');
  });

  it("writes what is still queued when closed", () => {
    const file = logFile("");
    const log = new JsonlAppender<{ id: number }>(file);
    void log.appendGrouped({ id: 1 });
    log.close();
    expect(readFileSync(file, "utf8")).toBe('{"id":1}\n');
  });
});

describe("readJsonl", () => {
  it("skips a torn tail and numbers the lines from 1", () => {
    const file = logFile('{"id":1}\n\n{"id":2}\n{"id":3,');
    expect(readJsonl(file, RowSchema)).toEqual([
      { line: 1, record: { id: 1 } },
      { line: 3, record: { id: 2 } },
    ]);
  });

  it("names the file and line of invalid JSON before the tail", () => {
    const file = logFile('{"id":1}\n{"id":2,{"id":3}\n{"id":4}\n');
    expect(() => readJsonl(file, RowSchema)).toThrow(`${file}:2: not valid JSON`);
  });

  it("names the file, line and field of a record that fails its schema", () => {
    const file = logFile('{"id":1}\n{"id":"two"}\n');
    expect(() => readJsonl(file, RowSchema)).toThrow(`${file}:2: field "id"`);
  });
});
