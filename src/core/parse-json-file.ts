/** Reads one JSON file whole; a file that cannot be read or parsed is an input error naming it. */
import { readFileSync } from "node:fs";
import { InputError } from "./errors/input-error.js";

/** The parsed content of `file`, not yet validated: the caller's schema says what it must be. A UTF-8 BOM is skipped. */
export function parseJsonFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new InputError(`${file}: not valid JSON (${(error as Error).message})`);
  }
}
