/** The registry factory: the named entries of one kind (benchmarks, cookbooks, verifiers, backends, commands), each loaded on first use. */
import { UnknownNameError } from "./errors/unknown-name-error.js";

/** One entry: how to load it, plus whatever a listing shows without loading it (a command's summary). */
export interface RegistryEntry<Value> {
  load: () => Value | Promise<Value>;
}

/** The entries of one kind by name, in the order they were registered (the order help lists them). */
export interface Registry<Value, Entry extends RegistryEntry<Value> = RegistryEntry<Value>> {
  /** What the entries are, for messages: "benchmark". */
  readonly kind: string;
  /** Every name, in registration order. */
  names(): readonly string[];
  /** Whether an entry is called `name`. */
  has(name: string): boolean;
  /** The entry called `name`, not loaded; an UnknownNameError listing the names for any other. */
  get(name: string): Entry;
  /** The value of the entry called `name`, loaded; an UnknownNameError listing the names for any other. */
  load(name: string): Promise<Value>;
  /** Every value, loaded, in registration order. */
  loadAll(): Promise<Value[]>;
}

/** Options of a registry. */
export interface RegistryOptions {
  /** Appended to the unknown-name message, e.g. "or give a module path". */
  unknownNameHint?: string;
}

/** A registry of `kind` over `entries`; nothing is loaded until `load` or `loadAll` asks for it. */
export function createRegistry<Value, Entry extends RegistryEntry<Value> = RegistryEntry<Value>>(
  kind: string,
  entries: Readonly<Record<string, Entry>>,
  options: RegistryOptions = {},
): Registry<Value, Entry> {
  const names = Object.freeze(Object.keys(entries));
  // Object.hasOwn, not `in`: "constructor" and "toString" are no entry's names.
  const has = (name: string) => Object.hasOwn(entries, name);
  const get = (name: string): Entry => {
    if (!has(name)) throw new UnknownNameError(kind, name, names, options.unknownNameHint);
    return entries[name] as Entry;
  };
  return {
    kind,
    names: () => names,
    has,
    get,
    load: async (name) => get(name).load(),
    loadAll: () => Promise.all(names.map((name) => get(name).load())),
  };
}
