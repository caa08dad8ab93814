/** `rllm cache stats | clear [--older-than]`: their help text and arguments (light, for help; the flags are in cache-flags.ts); the work is in cache.ts. */
import { defineCommand, defineCommandGroup, noArguments, noFlags } from "../command-definition.js";
import { ClearFlagsSchema } from "./cache-flags.js";

/** `rllm cache` and its subcommands. */
export const cacheCommand = defineCommandGroup({
  name: "cache",
  description: "The response cache that `rllm eval --cache` fills: $RLLM_HOME/cache/responses.sqlite (default ~/.cache/rllm-ts).",
  subcommands: [
    defineCommand({
      name: "stats",
      description: "print the cache file, its entries, size and the age of its oldest and newest reply",
      arguments: noArguments,
      flags: noFlags,
      loadAction: async () => (await import("./cache.js")).cacheStats,
    }),
    defineCommand({
      name: "clear",
      description: "delete cached replies (all, or those older than --older-than)",
      arguments: noArguments,
      flags: ClearFlagsSchema,
      loadAction: async () => (await import("./cache.js")).clearCache,
    }),
  ],
});
