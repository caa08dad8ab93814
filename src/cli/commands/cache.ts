/** `rllm cache stats | clear`'s actions on the response cache file. */
import { rllmHome } from "../../core/rllm-home.js";
import { ResponseCache, cacheFile } from "../../llm/response-cache.js";
import { parseDuration } from "../../core/parse-duration.js";
import type { ClearFlags } from "./cache-flags.js";

/** Opens the cache, saying so when it had to be rebuilt. */
function openCache(): ResponseCache {
  const cache = ResponseCache.open(cacheFile(rllmHome()));
  if (cache.recovery) console.error(`rllm: ${cache.recovery}`);
  return cache;
}

/** Prints the cache's file, entries, size and age range. */
export function cacheStats(): void {
  const cache = openCache();
  try {
    const stats = cache.stats();
    const age = (time: number | undefined) => (time === undefined ? "-" : new Date(time).toISOString());
    console.log(`file     ${stats.file}\nentries  ${stats.entries}\nsize     ${(stats.bytes / 1024).toFixed(1)} KiB\noldest   ${age(stats.oldest)}\nnewest   ${age(stats.newest)}`);
  } finally {
    cache.close();
  }
}

/** Deletes all cached replies, or those older than --older-than. */
export function clearCache(flags: ClearFlags): void {
  const olderThanMs = flags.olderThan === undefined ? undefined : parseDuration("--older-than", flags.olderThan);
  const cache = openCache();
  try {
    const removed = cache.clear(olderThanMs);
    console.log(`removed ${removed} cached replies${flags.olderThan ? ` older than ${flags.olderThan}` : ""}; ${cache.stats().entries} remain`);
  } finally {
    cache.close();
  }
}
