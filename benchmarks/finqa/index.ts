/** The FinQA benchmark: its task loaders, the read-only table store the tools query, and the rLLM/finqa download. */
export { finqaBenchmark, loadFinqaTasks } from "./finqa-benchmark.js";
export { TableStore, QueryRefusedError, maxResultRows, type StoredTable, type StoredColumn } from "./table-store.js";
export { CompanyTables, companyTablesPool } from "./company-tables.js";
export { SqlQueryPool } from "./sql-query-pool.js";
export { TableSourceSchema, type TableSource } from "./table-source.js";
export { pullRllmFinqa, rllmFinqaFolder, rllmFinqaRepo } from "./pull-rllm-finqa.js";
