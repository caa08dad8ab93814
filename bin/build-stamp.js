// The build stamp: what dist/ was compiled from. bin/rllm.js runs dist/ only when the stamp matches the sources as they
// are now, so an edited, added or deleted source file can never run stale compiled code.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The folders tsconfig.build.json compiles into dist/. */
const sourceFolders = ["src", "verifiers", "benchmarks", "cookbooks"];
// The files that change how the sources compile, or what the build copies.
const configFiles = ["package.json", "tsconfig.json", "tsconfig.build.json"];
// TypeScript and JavaScript modules and the viewer's stylesheet: what tsc compiles and the build copies (data files are
// read from the package root).
const moduleFile = /\.([cm]?[jt]s|css)$/;

/** Where the build writes its stamp, relative to the package root. */
export const stampPath = "dist/build-stamp.json";

/** Every source module and config file under `root` (paths relative to it, sorted). */
export function sourceFiles(root) {
  const files = [...configFiles];
  const walk = (folder) => {
    for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
      const file = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (moduleFile.test(entry.name)) files.push(file);
    }
  };
  for (const folder of sourceFolders) walk(folder);
  return files.sort();
}

/**
 * Each file's size, inode and change time. A write to a file always moves its change time, which, unlike the
 * modification time, no tool can set back; so files whose three are unchanged have their old content.
 */
export function fileStates(root, files) {
  return Object.fromEntries(
    files.map((file) => {
      const stats = statSync(path.join(root, file));
      return [file, `${stats.size}:${stats.ino}:${stats.ctimeMs}`];
    }),
  );
}

/** SHA-256 over the path and content of each file, in order. */
export async function contentDigest(root, files) {
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** Writes the stamp of a build compiled from files with these states and this content digest. */
export function writeStamp(root, contentDigest, states) {
  writeFileSync(path.join(root, stampPath), JSON.stringify({ contentDigest, files: states }));
}

/**
 * Whether dist/ under `root` was built from exactly the sources there now; false when anything is missing. The
 * cheap check (the same files, none written since) answers yes; otherwise the contents decide (a fresh clone or a
 * branch switch rewrites files with the same content).
 */
export async function isBuildFresh(root) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(root, stampPath), "utf8"));
  } catch {
    return false;
  }
  try {
    const files = sourceFiles(root);
    const states = fileStates(root, files);
    const stamped = stamp.files ?? {};
    if (files.length === Object.keys(stamped).length && files.every((file) => stamped[file] === states[file])) return true;
    return stamp.contentDigest === (await contentDigest(root, files));
  } catch {
    return false;
  }
}
