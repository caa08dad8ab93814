/**
 * The company tables of one run: each company's table store, built on first use from a task's table source and shared
 * by every task of that company, and the query processes they all run on. It is the FinQA tools' pool: opened by the
 * run's services, closed (stores and processes) when the run ends.
 */
import { InputError, type PoolDefinition } from "rllm-ts/core";
import { originalCompanyTables, readOriginalFinqaRows } from "./original-format.js";
import { findCompanyFolder, listCompanies, readRllmCompanyTables } from "./rllm-format.js";
import { SqlQueryPool } from "./sql-query-pool.js";
import type { TableSource } from "./table-source.js";
import { TableStore } from "./table-store.js";

/** The stores of a run, by table source and company. */
export class CompanyTables {
  private readonly stores = new Map<string, TableStore>();
  // Every company of an original-format file shares one parse.
  private readonly originalFiles = new Map<string, ReturnType<typeof originalCompanyTables>>();

  constructor(
    /** The processes queries run in. */
    readonly queries: SqlQueryPool = new SqlQueryPool(),
  ) {}

  /** The store of `company` (case-insensitive); throws InputError naming the known companies when there is none. */
  open(source: TableSource, company: string): TableStore {
    const key = `${JSON.stringify(source)}\u0000${company.trim().toLowerCase()}`;
    const cached = this.stores.get(key);
    if (cached) return cached;
    const store = TableStore.build(company.trim(), this.readCompanyTables(source, company), { pool: this.queries });
    this.stores.set(key, store);
    return store;
  }

  /** Closes every store and the query processes. */
  close(): void {
    for (const store of this.stores.values()) store.close();
    this.stores.clear();
    this.originalFiles.clear();
    this.queries.close();
  }

  private readCompanyTables(source: TableSource, company: string) {
    if (source.format === "finqa-original") {
      let companies = this.originalFiles.get(source.file);
      if (!companies) {
        companies = originalCompanyTables(readOriginalFinqaRows(source.file));
        this.originalFiles.set(source.file, companies);
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
}

// The model reads this list: enough to spot a spelling, not the whole catalogue.
function listForMessage(names: string[]): string {
  return names.length > 40 ? `${names.slice(0, 40).join(", ")} ... (${names.length} in all)` : names.join(", ");
}

/** The FinQA tools' pool: the run's company tables and their query processes. */
export const companyTablesPool: PoolDefinition<CompanyTables> = {
  name: "sql",
  open: async () => new CompanyTables(),
  close: async (tables) => tables.close(),
  describe: (tables) => ({ processes: tables.queries.size }),
};
