/** Opens (once per process) the table store of one company from a task's table source. */
import { InputError } from "rllm-ts/core";
import { originalCompanyTables, readOriginalFinqaRows } from "./original-format.js";
import { findCompanyFolder, listCompanies, readRllmCompanyTables } from "./rllm-format.js";
import type { TableSource } from "./table-source.js";
import { TableStore } from "./table-store.js";

// Every task of a company shares its store, and every company of an original-format file shares one parse.
const stores = new Map<string, TableStore>();
const originalFiles = new Map<string, ReturnType<typeof originalCompanyTables>>();

/** The store of `company` (case-insensitive); throws InputError naming the known companies when there is none. */
export function openCompanyTables(source: TableSource, company: string): TableStore {
  const key = `${JSON.stringify(source)}\u0000${company.trim().toLowerCase()}`;
  const cached = stores.get(key);
  if (cached) return cached;
  const store = TableStore.build(company.trim(), readCompanyTables(source, company));
  stores.set(key, store);
  return store;
}

function readCompanyTables(source: TableSource, company: string) {
  if (source.format === "finqa-original") {
    let companies = originalFiles.get(source.file);
    if (!companies) {
      companies = originalCompanyTables(readOriginalFinqaRows(source.file));
      originalFiles.set(source.file, companies);
    }
    const tables = companies.get(company.trim().toLowerCase());
    if (!tables) throw new InputError(`unknown company "${company}"; known: ${listForMessage([...companies.keys()].sort())}`);
    return tables;
  }
  const folder = findCompanyFolder(source.tablesRoot, company);
  if (!folder) {
    throw new InputError(`unknown company "${company}" in ${source.tablesRoot}; known: ${listForMessage(listCompanies(source.tablesRoot))}`);
  }
  return readRllmCompanyTables(folder);
}

// The model reads this list: enough to spot a spelling, not the whole catalogue.
function listForMessage(names: string[]): string {
  return names.length > 40 ? `${names.slice(0, 40).join(", ")} ... (${names.length} in all)` : names.join(", ");
}

/** Closes and forgets every open store (tests; long-lived processes that switch datasets). */
export function closeCompanyTables(): void {
  for (const store of stores.values()) store.close();
  stores.clear();
  originalFiles.clear();
}
