/** Every built-in cookbook by the name `--cookbook` takes, loaded on demand (a cookbook may pull in a sandbox or SQLite). */
import type { Cookbook } from "../src/core/cookbook.js";

const loaders: Record<string, () => Promise<Cookbook>> = {
  arith: async () => (await import("./arith/index.js")).arithCookbook,
  qa: async () => (await import("./qa/index.js")).qaCookbook,
  math: async () => (await import("./math/index.js")).mathCookbook,
  geo3k: async () => (await import("./geo3k/index.js")).geo3kCookbook,
  finqa: async () => (await import("./finqa/index.js")).finqaCookbook,
  deepcoder: async () => (await import("./deepcoder/index.js")).deepcoderCookbook,
};

/** Names of the built-in cookbooks. */
export const cookbookNames: readonly string[] = Object.keys(loaders);

/** The cookbook called `name`, or undefined when there is none. */
export async function loadCookbook(name: string): Promise<Cookbook | undefined> {
  return Object.hasOwn(loaders, name) ? loaders[name]!() : undefined;
}
