/** Locates files shipped with the package (bundled samples, the tiny model checkpoint), wherever it is installed. */
import { fileURLToPath } from "node:url";
import path from "node:path";

// This file sits at <root>/src/core/package-root.ts.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Absolute path of `relativePath` inside the installed package. */
export function packagePath(...relativePath: string[]): string {
  return path.join(root, ...relativePath);
}
