/** Usage checks on the files a command's flags name, made before any work so a bad path exits 2 at once. */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import path from "node:path";
import { InputError } from "./errors/input-error.js";
import { type OptionName, usageMessage } from "./errors/option-name.js";

/** Throws unless `file` (given as `flag`, or as an option that library callers name differently) is an existing regular file. */
export function assertInputFile(flag: string | OptionName, file: string): void {
  if (!existsSync(file)) throw new InputError(usageMessage`${flag} ${file}: no such file`);
  if (statSync(file).isDirectory()) throw new InputError(usageMessage`${flag} ${file}: is a directory; give a file`);
}

/**
 * Throws unless `file` (given as `flag`) can be written: its folder exists and is writable, and it is not itself a
 * folder. Checked before grading or judging, so that hours of work are never lost to ENOENT at the end.
 */
export function assertWritableOutput(flag: string, file: string): void {
  if (existsSync(file) && statSync(file).isDirectory()) throw new InputError(`${flag} ${file}: is a directory; give a file path`);
  const folder = path.dirname(path.resolve(file));
  if (!existsSync(folder)) throw new InputError(`${flag} ${file}: folder ${folder} does not exist`);
  if (!statSync(folder).isDirectory()) throw new InputError(`${flag} ${file}: ${folder} is not a folder`);
  try {
    accessSync(existsSync(file) ? file : folder, constants.W_OK);
  } catch {
    throw new InputError(`${flag} ${file}: not writable`);
  }
}

/** Throws unless `directory` (given as `flag`) is a tiny-model checkpoint folder (it holds manifest.json and weights.bin). */
export function assertCheckpointDirectory(flag: string, directory: string): void {
  if (!existsSync(directory)) throw new InputError(`${flag} ${directory}: no such directory`);
  if (!statSync(directory).isDirectory()) throw new InputError(`${flag} ${directory}: not a directory (give a checkpoint folder)`);
  for (const file of ["manifest.json", "weights.bin"]) {
    if (!existsSync(path.join(directory, file))) throw new InputError(`${flag} ${directory}: not a tiny-model checkpoint (no ${file})`);
  }
}
