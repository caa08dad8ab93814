/** Locates files shipped with the package (bundled samples, the tiny model checkpoint), wherever it is installed. */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The nearest folder above this file that holds package.json: the checkout when running from src/core/, and the
// installed package when running the build from dist/src/core/ (dist/ has no package.json, the data sits beside it).
const root = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));

/** Absolute path of `relativePath` inside the installed package. */
export function packagePath(...relativePath: string[]): string {
  return path.join(root, ...relativePath);
}

function findPackageRoot(start: string): string {
  for (let folder = start; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, "package.json"))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`no package.json above ${start}`);
  }
}
