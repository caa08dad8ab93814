/**
 * Imports a module from here, a module that is itself loaded only after tsx registers: tsx unwraps a CommonJS
 * cookbook's exports (`default`, `cookbook`) only for importers that went through its hooks.
 */

/** The module at `url`, as tsx gives it to an importer loaded through its hooks. */
export const importThroughLoader = (url: string): Promise<Record<string, unknown>> => import(url);
