/** Every built-in cookbook by the name `--cookbook` takes, loaded on demand (a cookbook may pull in a sandbox or SQLite). */
import { createRegistry, type Cookbook } from "rllm-ts/core";

/** The built-in cookbooks; any other name may be a module path instead. */
export const cookbooks = createRegistry<Cookbook>(
  "cookbook",
  {
    arith: { load: async () => (await import("./arith/index.js")).arithCookbook },
    qa: { load: async () => (await import("./qa/index.js")).qaCookbook },
    math: { load: async () => (await import("./math/index.js")).mathCookbook },
    geo3k: { load: async () => (await import("./geo3k/index.js")).geo3kCookbook },
    finqa: { load: async () => (await import("./finqa/index.js")).finqaCookbook },
    deepcoder: { load: async () => (await import("./deepcoder/index.js")).deepcoderCookbook },
    terminal: { load: async () => (await import("./terminal/index.js")).terminalCookbook },
    frozenlake: { load: async () => (await import("./frozenlake/index.js")).frozenLakeCookbook },
    "prompted-math": { load: async () => (await import("./prompted-math/index.js")).promptedMathCookbook },
    "multiple-choice": { load: async () => (await import("./multiple-choice/index.js")).multipleChoiceCookbook },
    evalplus: { load: async () => (await import("./evalplus/index.js")).evalplusCookbook },
  },
  { unknownNameHint: "or give a module path" },
);
