import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/core/errors/input-error.js";
import { candidateText, readRerankRows } from "../../src/tournament/rerank-input.js";

function writeInput(lines: string[]): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "rllm-rerank-input-")), "candidates.jsonl");
  writeFileSync(file, lines.join("\n"));
  return file;
}

describe("readRerankRows", () => {
  it("reads text candidates and labelled ones, with numeric ids as strings", () => {
    const file = writeInput([
      JSON.stringify({ id: 1, problem: "p", candidates: ["a", { text: "b", isCorrect: true, answer: "2" }] }),
      "",
    ]);
    const [row] = readRerankRows(file);
    expect(row!.id).toBe("1");
    expect(row!.candidates.map(candidateText)).toEqual(["a", "b"]);
  });

  it("names the file, line and field of every bad row, a repeated id among them", () => {
    const file = writeInput([
      JSON.stringify({ id: "a", problem: "p", candidates: ["x"] }),
      JSON.stringify({ id: "b", problem: "p", candidates: [] }),
      "{not json",
      JSON.stringify({ id: "a", problem: "q", candidates: ["y"] }),
    ]);
    expect(() => readRerankRows(file)).toThrow(InputError);
    expect(() => readRerankRows(file)).toThrow(`3 bad row(s) in ${file}:`);
    expect(() => readRerankRows(file)).toThrow(`${file}:2: field "candidates"`);
    expect(() => readRerankRows(file)).toThrow(`${file}:3: not valid JSON`);
    expect(() => readRerankRows(file)).toThrow(`${file}:4: field "id": duplicate id "a" (first used on line 1)`);
  });

  it("reads a row's own judge-call budget and names the field when it is not a count", () => {
    const good = writeInput([JSON.stringify({ id: "a", problem: "p", candidates: ["x", "y"], maxCalls: 3 })]);
    expect(readRerankRows(good)[0]!.maxCalls).toBe(3);
    const bad = writeInput([JSON.stringify({ id: "a", problem: "p", candidates: ["x", "y"], maxCalls: -1 })]);
    expect(() => readRerankRows(bad)).toThrow(`${bad}:1: field "maxCalls"`);
  });
});
