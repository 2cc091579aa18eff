/** The market build on the sample feed: records by reason, dedup, windows, growth, determinism. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { buildFixture, FIXTURE_FEED, unopened } from "./helpers.ts";
import { loadMarket, MARKET_SNAPSHOT } from "../serve/market/artifact.ts";
import { openedFile, readDataFile } from "../serve/stores/duckdb.ts";
import { buildMarket, type MarketDetails } from "../build/market/pipeline.ts";
import { readPointer } from "../build/publish.ts";

async function query(dir: string, sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(join(dir, "market.duckdb"), {
    access_mode: "READ_ONLY",
  });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

Deno.test("market build: sample feed end to end", async (t) => {
  const artifacts = await Deno.makeTempDir({ prefix: "test-market-" });
  try {
    await buildFixture(artifacts);
    const result = await buildMarket(artifacts, { postings: [FIXTURE_FEED] });
    const details = result.manifest.market as MarketDetails;

    await t.step("manifest: inputs with sha256, taxonomy, as-of from the latest date", () => {
      assert.equal(result.manifest.artifact, "market");
      assert.match(result.version, /^2026-05-05-[0-9a-f]{12}$/);
      assert.equal(details.as_of, "2026-05-05");
      assert.equal(details.as_of_source, "latest_date_posted");
      const feed = result.manifest.inputs.find((i) => i.file === "sample-feed.ndjson");
      assert.match(feed?.sha256 ?? "", /^[0-9a-f]{64}$/);
      const dictionary = result.manifest.inputs.filter((i) =>
        i.file.startsWith("build/market/dictionary/")
      );
      assert.equal(dictionary.length, 2);
      for (const input of dictionary) assert.match(input.sha256 ?? "", /^[0-9a-f]{64}$/);
      assert.match(details.taxonomy.version, /^29\.3-/);
      assert.match(details.occupation_policy, /^svc-onet-/);
    });

    await t.step("bad records are counted by reason, never silently dropped", () => {
      const [feed] = details.feeds;
      assert.equal(feed.records, 30);
      assert.equal(feed.dropped, 2); // no title + malformed line
      assert.equal(feed.kept, 28);
      assert.equal(feed.issues.no_title, 1);
      assert.equal(feed.issues.malformed_record, 1);
      assert.equal(feed.issues.unparseable_date, 1);
      assert.equal(feed.issues.unknown_country, 1);
      assert.equal(feed.issues.no_date, 1);
      assert.equal(details.postings.kept, 28);
    });

    await t.step("dedup: a repost within 30 days is one job, after 48 days a new one", async () => {
      const scientist = await query(
        result.dir,
        "SELECT postings, first_posted::VARCHAR AS f, last_posted::VARCHAR AS l FROM market_jobs " +
          "WHERE title = 'Data Scientist'",
      );
      assert.deepEqual(scientist, [{ postings: 2, f: "2026-04-20", l: "2026-04-30" }]);
      const engineers = await query(
        result.dir,
        "SELECT count(*)::INTEGER AS n FROM market_jobs WHERE employer = 'Northwind Labs' " +
          "AND title = 'Software Engineer'",
      );
      assert.equal(engineers[0].n, 2);
    });

    await t.step(
      "windows: exactly 30 days before as-of is previous; expired is not active",
      async () => {
        const rows = await query(
          result.dir,
          "SELECT title, active, in_current, in_previous FROM market_jobs WHERE title IN " +
            "('Expired Data Engineer', 'Java Developer') OR (title = 'Software Engineer' AND " +
            "first_posted = DATE '2026-04-05') ORDER BY title",
        );
        assert.deepEqual(rows, [
          { title: "Expired Data Engineer", active: false, in_current: true, in_previous: false },
          { title: "Java Developer", active: false, in_current: false, in_previous: true },
          { title: "Software Engineer", active: false, in_current: false, in_previous: true },
        ]);
      },
    );

    await t.step("remote: explicit first, then phrases, negation respected", async () => {
      const rows = await query(
        result.dir,
        "SELECT title, remote, hybrid, remote_rule FROM market_jobs WHERE title IN " +
          "('Data Engineer', 'Senior Software Engineer', 'Web Developer', 'Accountant', " +
          "'Software Developer') ORDER BY title",
      );
      assert.deepEqual(rows, [
        { title: "Accountant", remote: false, hybrid: true, remote_rule: "description_phrase" },
        { title: "Data Engineer", remote: true, hybrid: false, remote_rule: "job_location_type" },
        {
          title: "Senior Software Engineer",
          remote: true,
          hybrid: false,
          remote_rule: "description_phrase",
        },
        {
          title: "Software Developer",
          remote: true,
          hybrid: false,
          remote_rule: "description_phrase",
        },
        { title: "Web Developer", remote: false, hybrid: false, remote_rule: null },
      ]);
    });

    await t.step("countries: names, alpha-3 and a US state resolve", async () => {
      const rows = await query(
        result.dir,
        "SELECT title, country FROM market_jobs WHERE title IN ('Web Developer', " +
          "'Chemist', 'Nursing Assistant', 'Business Analyst', 'Data Analyst') ORDER BY title, country",
      );
      assert.deepEqual(rows, [
        { title: "Business Analyst", country: null },
        { title: "Chemist", country: "DE" },
        { title: "Data Analyst", country: "CA" },
        { title: "Data Analyst", country: "US" },
        { title: "Nursing Assistant", country: "US" },
        { title: "Web Developer", country: "DE" },
      ]);
    });

    await t.step("growth_rate: 0 -> n is 1.0, n -> 0 is -1.0", async () => {
      const rows = await query(
        result.dir,
        "SELECT term_name, current_count::INTEGER AS current_count, " +
          "previous_count::INTEGER AS previous_count, growth_rate FROM market_trending " +
          "WHERE term_name IN ('React', 'Oracle Java') ORDER BY term_name",
      );
      assert.deepEqual(rows, [
        { term_name: "Oracle Java", current_count: 0, previous_count: 3, growth_rate: -1 },
        { term_name: "React", current_count: 3, previous_count: 0, growth_rate: 1 },
      ]);
    });

    await t.step("staged Parquet is partitioned by posting month", async () => {
      const months: string[] = [];
      for await (const entry of Deno.readDir(join(result.dir, "staging", "postings"))) {
        months.push(entry.name);
      }
      assert.ok(months.includes("posting_month=2026-04"));
      assert.ok(months.includes("posting_month=undated"));
    });

    await t.step("the build's snapshot loads as the tables do, without the data file", async () => {
      const fromTables = await readDataFile(
        join(result.dir, "market.duckdb"),
        (connection) => loadMarket(openedFile(connection), result.manifest),
      );
      const fromSnapshot = await loadMarket(unopened, result.manifest, result.dir);
      assert.equal(fromTables.loadedFrom, "tables");
      assert.equal(fromSnapshot.loadedFrom, "snapshot");
      assert.deepEqual({ ...fromSnapshot, loadedFrom: "" }, { ...fromTables, loadedFrom: "" });
      assert.ok(fromSnapshot.terms.size > 0 && fromSnapshot.totals.size > 0);
      // A damaged snapshot is not used: the data file is read instead.
      const file = join(result.dir, MARKET_SNAPSHOT);
      const bytes = await Deno.readFile(file);
      bytes[bytes.length - 5] ^= 0xff;
      await Deno.writeFile(file, bytes);
      await assert.rejects(loadMarket(unopened, result.manifest, result.dir), /opened the data/);
      // Read from the data file, the tables are written back whole: the next load reads them.
      const fallback = await readDataFile(
        join(result.dir, "market.duckdb"),
        (connection) => loadMarket(openedFile(connection), result.manifest, result.dir),
      );
      assert.equal(fallback.loadedFrom, "tables, snapshot written back");
      const back = await loadMarket(unopened, result.manifest, result.dir);
      assert.equal(back.loadedFrom, "snapshot");
      assert.deepEqual({ ...back, loadedFrom: "" }, { ...fromTables, loadedFrom: "" });
    });

    await t.step("the same feed gives the same version; --as-of changes it", async () => {
      const again = await buildMarket(artifacts, { postings: [FIXTURE_FEED] });
      assert.equal(again.version, result.version);
      assert.equal(again.reused, true);
      // Staging in two workers writes exactly what staging on one thread writes.
      const parallel = await buildMarket(artifacts, { postings: [FIXTURE_FEED], workers: 2 });
      assert.equal(parallel.version, result.version);
      const earlier = await buildMarket(artifacts, {
        postings: [FIXTURE_FEED],
        asOf: "2026-04-15",
      });
      assert.match(earlier.version, /^2026-04-15-/);
      assert.equal(await readPointer(join(artifacts, "market")), earlier.version);
    });
  } finally {
    await Deno.remove(artifacts, { recursive: true });
  }
});

Deno.test("market build: a feed over the dropped-records threshold fails and publishes nothing", async () => {
  const artifacts = await Deno.makeTempDir({ prefix: "test-market-" });
  const feed = join(artifacts, "bad.ndjson");
  try {
    await buildFixture(artifacts);
    await Deno.writeTextFile(
      feed,
      [
        JSON.stringify({ "@type": "JobPosting", title: "Nurse", datePosted: "2026-01-02" }),
        JSON.stringify({ "@type": "JobPosting", datePosted: "2026-01-02" }),
        "not json",
      ].join("\n"),
    );
    await assert.rejects(
      () => buildMarket(artifacts, { postings: [feed] }),
      /bad\.ndjson: 2 of 3 records dropped \(malformed_record 1, no_title 1\)/,
    );
    assert.equal(await readPointer(join(artifacts, "market")), null);
  } finally {
    await Deno.remove(artifacts, { recursive: true });
  }
});

Deno.test("market build: a lone surrogate in a JSON string neither fails the build nor is lost", async () => {
  const artifacts = await Deno.makeTempDir({ prefix: "test-market-" });
  const feed = join(artifacts, "odd.ndjson");
  try {
    await buildFixture(artifacts);
    await Deno.writeTextFile(
      feed,
      '{"@type":"JobPosting","title":"Data Engineer \\udfff","description":"Python \\ud800",' +
        '"datePosted":"2026-05-01","jobLocation":{"address":{"addressCountry":"US"}}}\n',
    );
    const result = await buildMarket(artifacts, { postings: [feed] });
    const rows = await query(result.dir, "SELECT title FROM market_jobs");
    assert.deepEqual(rows, [{ title: "Data Engineer \ufffd" }]);
  } finally {
    await Deno.remove(artifacts, { recursive: true });
  }
});
