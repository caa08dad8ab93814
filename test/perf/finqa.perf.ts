/** FinQA throughput: grader verdicts/s over the bundled gold answers, store build time, and guarded SQL queries/s. */
import { readFileSync } from "node:fs";
import { originalCompanyTables, readOriginalFinqaRows } from "../../benchmarks/finqa/original-format.js";
import { TableStore } from "../../benchmarks/finqa/table-store.js";
import { packagePath } from "../../src/core/package-root.js";
import { gradeFinqaAnswer } from "../../verifiers/finqa/grade-finqa-answer.js";
import { SqlQueryPool } from "../../benchmarks/finqa/sql-query-pool.js";

const sampleFile = packagePath("benchmarks/finqa/data/finqa_sample.jsonl");
const golds = readFileSync(sampleFile, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => (JSON.parse(line) as { exe_ans: number | string }).exe_ans);
// Three replies per gold answer: exact, as a rounded percent, and a 1% miss.
const replies: [string, number | string][] = golds.flatMap((gold): [string, number | string][] =>
  typeof gold === "number"
    ? [[`FINAL ANSWER: ${gold}`, gold], [`FINAL ANSWER: ${(gold * 100).toFixed(2)}% (from the table)`, gold], [`FINAL ANSWER: ${gold * 1.01}`, gold]]
    : [[`FINAL ANSWER: ${gold}`, gold]],
);

const gradeRounds = 200;
let started = performance.now();
let correct = 0;
for (let round = 0; round < gradeRounds; round++) {
  for (const [reply, gold] of replies) if (gradeFinqaAnswer(reply, gold).verdict === "correct") correct++;
}
let seconds = (performance.now() - started) / 1000;
console.log(`grader: ${Math.round((gradeRounds * replies.length) / seconds)} verdicts/s (${replies.length} replies × ${gradeRounds}; ${correct / gradeRounds} correct per round)`);

started = performance.now();
const companies = originalCompanyTables(readOriginalFinqaRows(sampleFile));
const queryPool = new SqlQueryPool();
const stores = [...companies].map(([company, tables]) => TableStore.build(company, tables, { pool: queryPool }));
seconds = (performance.now() - started) / 1000;
console.log(`store: ${stores.length} company stores (${stores.reduce((sum, store) => sum + store.tableNames().length, 0)} tables) built in ${(seconds * 1000).toFixed(1)} ms`);

const etr = stores.find((store) => store.company.toLowerCase() === "etr")!;
const table = etr.findTable("fy2016_page_23")!;
const query = "SELECT col_0, amount_in_millions FROM fy2016_page_23 WHERE col_0 LIKE '%net revenue%'";
// The first query starts the query process; time it apart from the steady state.
started = performance.now();
await etr.query(table, query);
console.log(`sql_query: first query ${(performance.now() - started).toFixed(0)} ms (starts the query process)`);
const queries = 20_000;
started = performance.now();
for (let index = 0; index < queries; index++) await etr.query(table, query);
seconds = (performance.now() - started) / 1000;
console.log(`sql_query: ${Math.round(queries / seconds)} guarded queries/s one at a time (check, send to the query process, prepare, run, 2 rows back)`);
const concurrent = 8;
started = performance.now();
await Promise.all(Array.from({ length: concurrent }, async () => {
  for (let index = 0; index < queries / concurrent; index++) await etr.query(table, query);
}));
seconds = (performance.now() - started) / 1000;
console.log(`sql_query: ${Math.round(queries / seconds)} guarded queries/s from ${concurrent} concurrent callers`);
for (const store of stores) store.close();
queryPool.close();
