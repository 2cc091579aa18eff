/**
 * Compares the market artifact's remote share with Indeed Hiring Lab's published remote/hybrid
 * share of postings (remote_tracker/remote_postings.csv, CC BY 4.0), per feed, country and
 * month where both have data. Usage:
 *   deno task bench:remote [--artifacts ./artifacts] [--indeed <remote_postings.csv>] [--min 30]
 * Prints one row per feed, country and month with at least --min distinct jobs.
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { readPointer } from "../build/publish.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    artifacts: { type: "string", default: "./artifacts" },
    indeed: {
      type: "string",
      default:
        "../shared/data/postings/indeed_hiring_lab_trackers/remote_tracker/remote_postings.csv",
    },
    min: { type: "string", default: "30" },
  },
});
const dir = join(values.artifacts!, "market");
const version = await readPointer(dir);
if (!version) {
  console.error(`no market artifact under ${values.artifacts}`);
  Deno.exit(2);
}
const q = (s: string) => `'${s.replaceAll("'", "''")}'`;
const instance = await DuckDBInstance.create(":memory:");
const connection = await instance.connect();
await connection.run(`ATTACH ${q(join(dir, version, "market.duckdb"))} AS m (READ_ONLY)`);
const reader = await connection.runAndReadAll(`
  WITH ours AS (
    SELECT feed, country, strftime(first_posted, '%Y-%m') AS month, count(*) AS jobs,
      avg(remote::INTEGER) AS remote_share, avg((remote OR hybrid)::INTEGER) AS remote_or_hybrid
    FROM m.market_jobs
    WHERE first_posted IS NOT NULL AND country IS NOT NULL AND date_precision = 'day'
    GROUP BY ALL
  ),
  indeed AS (
    SELECT jobcountry AS country, strftime(date, '%Y-%m') AS month,
      avg(remote_share_postings) / 100 AS indeed_share
    FROM read_csv(${q(values.indeed!)}, header = true)
    GROUP BY ALL
  )
  SELECT o.feed, o.country, o.month, o.jobs, round(o.remote_share, 3), round(o.remote_or_hybrid, 3),
    round(i.indeed_share, 3), round(o.remote_or_hybrid - i.indeed_share, 3)
  FROM ours o JOIN indeed i USING (country, month)
  WHERE o.jobs >= ${Number(values.min)}
  ORDER BY o.feed, o.country, o.month`);
console.log(`market ${version} against Indeed Hiring Lab remote_postings.csv (monthly mean)`);
console.log(
  "| feed | country | month | jobs | remote | remote or hybrid | Indeed remote/hybrid | difference |",
);
console.log("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |");
for (const row of reader.getRowsJS()) {
  console.log(`| ${row.map((v) => v === null ? "" : String(v)).join(" | ")} |`);
}
connection.closeSync();
instance.closeSync();
