// The query processes: databases reopened after eviction, and a process that cannot start fails its queries with a reason.
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { SqlQueryPool } from "../../../benchmarks/finqa/sql-query-pool.js";

const limits = { timeoutMs: 30_000, maxRows: 10, maxCharacters: 1000 };

function databaseHolding(value: number): Uint8Array {
  const scratch = new Database(":memory:");
  scratch.exec(`CREATE TABLE t (v); INSERT INTO t VALUES (${value})`);
  const bytes = scratch.serialize();
  scratch.close();
  return bytes;
}

describe("SqlQueryPool", () => {
  it("answers from every database after more were used than one process keeps open", async () => {
    const pool = new SqlQueryPool({ size: 1 });
    try {
      // 40 databases: more than the 32 a process keeps, so the first ones are closed and reopened.
      const ids = Array.from({ length: 40 }, (_, index) => pool.register(databaseHolding(index)));
      for (const [index, id] of ids.entries()) expect(await pool.run(id, "SELECT v FROM t", limits)).toEqual({ kind: "rows", rows: [{ v: index }] });
      expect(await pool.run(ids[0]!, "SELECT v FROM t", limits)).toEqual({ kind: "rows", rows: [{ v: 0 }] });
      pool.unregister(ids[1]!);
      expect(() => pool.run(ids[1]!, "SELECT v FROM t", limits)).toThrow(/database \d+ is not registered/);
    } finally {
      pool.close();
    }
  }, 60_000);

  it.runIf(process.platform === "linux" && existsSync("/usr/bin/prlimit"))(
    "fails every waiting query with the reason when its process cannot start",
    async () => {
      // 1 MiB of data memory is too little for Node itself to start.
      const pool = new SqlQueryPool({ size: 1, dataLimitBytes: 1024 * 1024 });
      try {
        const id = pool.register(databaseHolding(1));
        const outcomes = await Promise.all([pool.run(id, "SELECT v FROM t", limits), pool.run(id, "SELECT v FROM t", limits)]);
        for (const outcome of outcomes) expect(outcome).toMatchObject({ kind: "crashed", message: expect.stringMatching(/could not start/) });
      } finally {
        pool.close();
      }
    },
    60_000,
  );
});
