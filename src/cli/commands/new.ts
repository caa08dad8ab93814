/** `rllm new <kind> <name>`'s action: writes the skeleton's files and says how to run it. */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../core/errors/input-error.js";
import { scaffoldFiles, type ScaffoldKind } from "../scaffold-templates.js";
import type { NewFlags } from "./new-flags.js";

/** Writes the scaffold of `kind` called `name`; refuses a folder that already holds files unless --force. */
export function newAction(flags: NewFlags, [kind, name]: [ScaffoldKind, string]): void {
  const folder = flags.out ?? name;
  if (!flags.force && existsSync(folder) && readdirSync(folder).length > 0) {
    throw new InputError(`${folder} already holds files: choose another name or --out, or pass --force`);
  }
  const scaffold = scaffoldFiles(kind, name, path.isAbsolute(folder) ? folder : `./${path.normalize(folder)}`);
  mkdirSync(folder, { recursive: true });
  for (const [file, text] of Object.entries(scaffold.files)) writeFileSync(path.join(folder, file), text);
  console.log(`${kind} ${name} → ${folder}/ (${Object.keys(scaffold.files).join(", ")})`);
  console.log(`run it: ${scaffold.runCommand}`);
}
