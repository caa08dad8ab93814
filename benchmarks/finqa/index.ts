/** The FinQA benchmark: its task loaders, the read-only table store the tools query, and the rLLM/finqa download. */
export { finqaBenchmark, loadFinqaTasks } from "./finqa-benchmark.js";
export { TableStore, QueryRefusedError, maxResultRows, type StoredTable, type StoredColumn } from "./table-store.js";
export { openCompanyTables, closeCompanyTables } from "./open-company-tables.js";
export { TableSourceSchema, type TableSource } from "./table-source.js";
export { pullRllmFinqa, rllmFinqaFolder, rllmFinqaRepo } from "./pull-rllm-finqa.js";
