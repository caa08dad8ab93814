/** Every built-in cookbook, by the name `--cookbook` takes. */
import type { Cookbook } from "../src/core/cookbook.js";
import { qaCookbook } from "./qa/index.js";

export const cookbooks: ReadonlyMap<string, Cookbook> = new Map([qaCookbook].map((cookbook) => [cookbook.name, cookbook]));
