/** Finds a cookbook: a built-in name, or a user module path (`./my-flow.ts` / `.js`) exporting one. */
import path from "node:path";
import { existsSync } from "node:fs";
import { z } from "zod";
import type { Cookbook } from "../core/cookbook.js";
import { InputError, describeIssues } from "../core/errors/input-error.js";
import { optionName, usageMessage } from "../core/errors/option-name.js";
import { cookbooks } from "../../cookbooks/registry.js";
import { importUserModule } from "./import-user-module.js";

// Only the shape the engine relies on; a user module may carry more.
const CookbookShapeSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().default(""),
    flow: z.function(),
    evaluate: z.function(),
    extractAnswer: z.function().optional(),
    // Shape-checked, not `instanceof`: a user's module may bring its own copy of zod.
    optionsSchema: z.object({ shape: z.record(z.string(), z.unknown()), safeParse: z.function() }).passthrough().optional(),
    configure: z.function().optional(),
  })
  .passthrough()
  .refine((cookbook) => (cookbook.optionsSchema === undefined) === (cookbook.configure === undefined), {
    message: "optionsSchema and configure go together: a cookbook with options is configured with them",
    path: ["configure"],
  });

/** Whether a cookbook argument names a user module (`./my-flow.ts`) rather than a built-in cookbook. */
export const looksLikeModulePath = (value: string) => /[\\/]/.test(value) || /\.(m?[jt]s)$/.test(value);

/** The cookbook named `nameOrPath`; a module must export it as `default` or `cookbook`. */
export async function resolveCookbook(nameOrPath: string): Promise<Cookbook> {
  if (!looksLikeModulePath(nameOrPath)) return cookbooks.load(nameOrPath);
  const file = path.resolve(nameOrPath);
  if (!existsSync(file)) throw new InputError(usageMessage`${optionName("cookbook")} ${nameOrPath}: no such file`);
  const module = await importUserModule(file);
  const exported = module.default ?? module.cookbook;
  if (exported === undefined) throw new InputError(`${nameOrPath}: export a cookbook as "default" or "cookbook" ({name, flow, evaluate})`);
  const parsed = CookbookShapeSchema.safeParse(exported);
  if (!parsed.success) throw new InputError(describeIssues(nameOrPath, undefined, parsed.error));
  return exported as Cookbook;
}
