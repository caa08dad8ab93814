/** Reading what was appended to a JSONL file since a byte offset: whole lines only, so a write in progress is left for later. */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** Where a reader stands in a growing file: the byte offset after the last whole line read, and that line's number. */
export interface LineCursor {
  offset: number;
  line: number;
}

/** The whole lines appended since a cursor, each with its 1-based line number, and the cursor after them. */
export interface AppendedLines {
  lines: { line: number; text: string }[];
  cursor: LineCursor;
}

const newline = 0x0a;

/**
 * Reads `file` from `cursor.offset` to its end and returns the lines that end in a newline. Text after the last
 * newline is a torn or unfinished write: it is not returned, and the next read starts at it again. Only the new
 * bytes are read. A file shorter than the cursor (rewritten from the start) is read again from 0.
 */
export function readAppendedLines(file: string, cursor: LineCursor = { offset: 0, line: 0 }): AppendedLines {
  const descriptor = openSync(file, "r");
  try {
    const size = fstatSync(descriptor).size;
    const start = size < cursor.offset ? { offset: 0, line: 0 } : cursor;
    const bytes = Buffer.alloc(size - start.offset);
    let read = 0;
    while (read < bytes.length) {
      const count = readSync(descriptor, bytes, read, bytes.length - read, start.offset + read);
      if (count === 0) break;
      read += count;
    }
    // Cut at a byte, not a character: a write in progress can end inside a multi-byte character.
    const end = bytes.subarray(0, read).lastIndexOf(newline) + 1;
    if (end === 0) return { lines: [], cursor: start };
    const texts = bytes.subarray(0, end - 1).toString("utf8").split("\n");
    const lines = texts.map((text, index) => ({ line: start.line + index + 1, text })).filter((entry) => entry.text.trim() !== "");
    return { lines, cursor: { offset: start.offset + end, line: start.line + texts.length } };
  } finally {
    closeSync(descriptor);
  }
}
