/** Imports a user's module (a cookbook), first registering the tsx loader when the CLI runs its build. */
import { existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { packagePath } from "../core/package-root.js";

// From the sources, bin/rllm.js has registered tsx already (the sources need it themselves).
let isRegistered = import.meta.url.endsWith(".ts");

/** The module at `file` (an absolute path): TypeScript or JavaScript, ES module or CommonJS. */
export async function importUserModule(file: string): Promise<Record<string, unknown>> {
  if (!isRegistered) {
    // For ES modules and CommonJS both: a user's cookbook.ts in a project without "type": "module" is compiled as CommonJS.
    const { register } = await import("tsx/esm/api");
    const { register: registerCommonJs } = await import("tsx/cjs/api");
    // In a checkout running its build, "rllm-ts" must mean that build (the package's exports), as it does for an
    // installed package, not the sources tsconfig.json maps it to: two copies would not share classes or registries.
    // An installed package has no tsconfig.build.json, and tsx reads the user's own tsconfig.json.
    const buildConfig = packagePath("tsconfig.build.json");
    register({ tsconfig: existsSync(buildConfig) ? buildConfig : undefined });
    registerCommonJs();
    isRegistered = true;
  }
  // Imported only now, so that it loads through the hooks just registered.
  const { importThroughLoader } = await import("./import-through-loader.js");
  return importThroughLoader(pathToFileURL(file).href);
}
