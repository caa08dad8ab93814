/** Finds a program on PATH, as `which` does. */
import { accessSync, constants } from "node:fs";
import path from "node:path";

/** Absolute path of `name` on `searchPath`, or undefined. */
export function findExecutable(name: string, searchPath = process.env.PATH ?? ""): string | undefined {
  for (const directory of searchPath.split(path.delimiter)) {
    if (directory === "") continue;
    const candidate = path.join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}
