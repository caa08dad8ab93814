/** `rllm cache stats | clear [--older-than]`: their help text and flag schema (light, for help); the work is in cache.ts. */
import { z } from "zod";
import { defineCommand } from "../command-definition.js";

/** `rllm cache clear`'s flags. */
export const ClearFlagsSchema = z.object({
  olderThan: z.string().optional().describe("delete only replies older than this (90s, 30m, 12h, 7d)").meta({ value: "duration" }),
});
/** `rllm cache clear`'s parsed flags. */
export type ClearFlags = z.infer<typeof ClearFlagsSchema>;

/** `rllm cache` and its subcommands. */
export const cacheCommand = defineCommand({
  name: "cache",
  description: "The response cache that `rllm eval --cache` fills: $RLLM_HOME/cache/responses.sqlite (default ~/.cache/rllm-ts).",
  subcommands: [
    defineCommand({
      name: "stats",
      description: "print the cache file, its entries, size and the age of its oldest and newest reply",
      loadAction: async () => (await import("./cache.js")).cacheStats,
    }),
    defineCommand<typeof ClearFlagsSchema>({
      name: "clear",
      description: "delete cached replies (all, or those older than --older-than)",
      flags: ClearFlagsSchema,
      loadAction: async () => (await import("./cache.js")).clearCache,
    }),
  ],
});
