/** Every built-in cookbook, by the name `--cookbook` takes. */
import type { Cookbook } from "../src/core/cookbook.js";
import { qaCookbook } from "./qa/index.js";
import { arithCookbook } from "./arith/index.js";
import { geo3kCookbook } from "./geo3k/index.js";
import { mathCookbook } from "./math/index.js";
import { deepcoderCookbook } from "./deepcoder/index.js";
import { finqaCookbook } from "./finqa/index.js";

export const cookbooks: ReadonlyMap<string, Cookbook> = new Map([qaCookbook, geo3kCookbook, mathCookbook, arithCookbook, deepcoderCookbook, finqaCookbook].map((cookbook) => [cookbook.name, cookbook]));
