/**
 * Append-only JSONL logs (a run's episodes.jsonl and tournaments.jsonl): the torn-tail repair done before appending,
 * whole lines per write (one record, or a group commit of several), and a reader whose every error names the file and the line.
 */
import { appendFileSync, closeSync, existsSync, openSync, readFileSync, truncateSync, writeSync } from "node:fs";
import type { z } from "zod";
import { describeIssues, InputError } from "../core/errors/input-error.js";

const newline = 0x0a;

/** Whether `text` is one whole JSON value (a record that only lacks its newline). */
function isWholeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes `file` safe to append to. A record is written as one line and ends with its newline; text after the last
 * newline is the start of a write a kill cut short. Such a torn tail is cut off and appended to `<file>.torn`
 * (never overwriting what an earlier repair kept there). A tail that is a whole JSON value lost only its newline,
 * so it gets one and is kept. Returns the text that was cut, or undefined when nothing was.
 */
export function repairTornTail(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const bytes = readFileSync(file);
  if (bytes.length === 0 || bytes[bytes.length - 1] === newline) return undefined;
  // Bytes, not characters: the cut is a byte offset, and a kill can split a multi-byte character.
  const keep = bytes.lastIndexOf(newline) + 1;
  const tail = bytes.subarray(keep).toString("utf8");
  if (isWholeJson(tail)) {
    appendFileSync(file, "\n");
    return undefined;
  }
  appendFileSync(`${file}.torn`, `${tail}\n`);
  truncateSync(file, keep);
  return tail;
}

/**
 * An open append-only JSONL log. Opening it repairs a torn tail first, so the next record starts on a line of its
 * own. Records are written as whole lines with write(), handed to the kernel at once, so a killed process loses
 * nothing it had finished; the descriptor stays open (an open per record costs more than the write).
 */
export class JsonlAppender<Entry> {
  private descriptor: number | undefined;
  /** Lines queued by appendGrouped() for the next group commit, and the promise that commit settles. */
  private queued: string[] = [];
  private commit: { done: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;

  constructor(readonly file: string) {
    repairTornTail(file);
    this.descriptor = openSync(file, "a");
  }

  /** Appends one record as one line, written before this returns. */
  append(record: Entry): void {
    this.write(`${JSON.stringify(record)}\n`);
  }

  /**
   * Queues one record for a group commit: the records queued in one turn of the event loop (the episodes whose replies
   * arrived together) are written in one write() just after it, and the promise resolves once they are (it rejects if
   * that write fails). Whoever awaits it before reporting a record done keeps append()'s rule: nothing reported done
   * is lost when the process is killed. One write per batch instead of one per record.
   */
  appendGrouped(record: Entry): Promise<void> {
    if (this.descriptor === undefined) return Promise.reject(new Error(`${this.file}: appended to after close()`));
    this.queued.push(`${JSON.stringify(record)}\n`);
    if (!this.commit) {
      let resolve: () => void = () => undefined;
      let reject: (error: unknown) => void = () => undefined;
      const done = new Promise<void>((onDone, onFailure) => {
        resolve = onDone;
        reject = onFailure;
      });
      this.commit = { done, resolve, reject };
      setImmediate(() => this.flush());
    }
    return this.commit.done;
  }

  /** Closes the file (idempotent), first writing what appendGrouped() still holds. */
  close(): void {
    this.flush();
    if (this.descriptor !== undefined) closeSync(this.descriptor);
    this.descriptor = undefined;
  }

  private flush(): void {
    const commit = this.commit;
    if (!commit) return;
    const lines = this.queued.join("");
    this.queued = [];
    this.commit = undefined;
    try {
      this.write(lines);
      commit.resolve();
    } catch (error) {
      commit.reject(error);
    }
  }

  private write(lines: string): void {
    if (this.descriptor === undefined) throw new Error(`${this.file}: appended to after close()`);
    const bytes = Buffer.from(lines, "utf8");
    let written = 0;
    // A write to a regular file is whole in practice; the loop makes a short write finish the lines, not tear them.
    while (written < bytes.length) written += writeSync(this.descriptor, bytes, written);
  }
}

/** One record read back from a log, with its 1-based line number. */
export interface JsonlLine<Entry> {
  line: number;
  record: Entry;
}

/**
 * Reads and validates every line of `file` (absent: none). Blank lines are skipped, and so is a torn tail (text
 * after the last newline that is not whole JSON), which the next append cuts off. Any other bad line is an
 * InputError naming the file, the line and, for schema failures, the field.
 */
export function readJsonl<Schema extends z.ZodType>(file: string, schema: Schema): Array<JsonlLine<z.infer<Schema>>> {
  if (!existsSync(file)) return [];
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  const records: Array<JsonlLine<z.infer<Schema>>> = [];
  lines.forEach((content, index) => {
    if (content.trim() === "") return;
    const isTail = index === lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      if (isTail) return;
      throw new InputError(`${file}:${index + 1}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new InputError(describeIssues(file, index + 1, parsed.error));
    records.push({ line: index + 1, record: parsed.data });
  });
  return records;
}
