/** The code blocks of a docs page, run as written: each `rllm-ts` import (the root or an entry) pointed at its source file. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readPackageEntries } from "../architecture/import-graph.js";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const entries = readPackageEntries(repository);

/** The first ```ts block after `marker` in `page`, as the page prints it. */
export function codeBlockTextAfter(page: string, marker: string): string {
  const start = page.indexOf(marker);
  if (start < 0) throw new Error(`the page has no "${marker}"`);
  const block = /```ts\n([\s\S]*?)```/.exec(page.slice(start));
  if (!block) throw new Error(`the page has no ts block after "${marker}"`);
  return block[1]!;
}

/**
 * The first ```ts block after `marker` in `page`, with `from "rllm-ts…"` naming the sources. The block is written to a
 * folder outside the checkout, where tsconfig.json's paths do not reach.
 */
export function codeBlockAfter(page: string, marker: string): string {
  return codeBlockTextAfter(page, marker).replace(/from "(rllm-ts(?:\/[\w/-]+)?)"/g, (_match, name: string) => {
    const source = entries.get(name);
    if (source === undefined) throw new Error(`the block after "${marker}" imports ${name}, which is no entry of the package`);
    return `from ${JSON.stringify(path.join(repository, source))}`;
  });
}
