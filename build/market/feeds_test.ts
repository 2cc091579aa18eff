/** Unit tests of feed reading: JobPosting NDJSON, feed discovery, and CSV feeds through their maps. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { applyMap, type ColumnMap, parseColumnMap } from "./column_map.ts";
import { parseCsv, readTextChunks } from "./csv.ts";
import {
  discoverFeeds,
  type FeedFile,
  fromJobPosting,
  loadShippedMaps,
  type RawPosting,
  readFeed,
  type UnreadableRecord,
} from "./feeds.ts";
import { normalizePosting } from "./normalize.ts";

const MAPS = await loadShippedMaps();

function shippedMap(name: string): ColumnMap {
  const map = MAPS.find((m) => m.name === name);
  assert.ok(map, `no shipped map ${name}`);
  return map;
}

/** A CSV row for a map: the given cells by column name, every other column empty. */
function row(map: ColumnMap, cells: Record<string, string>): string[] {
  for (const column of Object.keys(cells)) assert.ok(map.index.has(column), column);
  return map.header.map((column) => cells[column] ?? "");
}

/** Writes rows as CSV text, quoting every cell (doubled quotes inside). */
function csvText(rows: string[][]): string {
  return rows.map((r) => r.map((c) => `"${c.replaceAll('"', '""')}"`).join(",")).join("\r\n") +
    "\r\n";
}

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "feeds_test_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function readAll(file: FeedFile) {
  const bad: UnreadableRecord[] = [];
  const postings: RawPosting[] = [];
  for await (const posting of readFeed(file, "feed-x", (r) => bad.push(r))) postings.push(posting);
  return { postings, bad };
}

// ---------------------------------------------------------------------------------------------
// fromJobPosting

Deno.test("fromJobPosting reads the canonical JobPosting fields", () => {
  const got = fromJobPosting(
    {
      "@type": "JobPosting",
      identifier: "job-1",
      title: "  Senior Data Engineer ",
      description: "<p>Build pipelines.</p>",
      datePosted: "2026-05-05",
      validThrough: "2026-06-30T00:00:00Z",
      employmentType: "FULL_TIME",
      hiringOrganization: { "@type": "Organization", name: "Northwind Labs" },
      jobLocation: {
        "@type": "Place",
        address: {
          "@type": "PostalAddress",
          addressCountry: "US",
          addressRegion: "TX",
          addressLocality: "Austin",
        },
      },
      applicantLocationRequirements: { "@type": "Country", name: "USA" },
      skills: ["Python", { name: "SQL" }, "  "],
      occupationalCategory: "15-1252.00",
    },
    "feed-a",
    "a.ndjson",
    7,
  );
  const expected: RawPosting = {
    feed: "feed-a",
    file: "a.ndjson",
    line: 7,
    identifier: "job-1",
    title: "Senior Data Engineer",
    description: "<p>Build pipelines.</p>",
    datePosted: { value: "2026-05-05", format: "auto" },
    validThrough: { value: "2026-06-30T00:00:00Z", format: "auto" },
    employer: "Northwind Labs",
    country: "US",
    countryDefault: null,
    region: "TX",
    locality: "Austin",
    locationText: null,
    telecommute: false,
    remoteColumn: null,
    applicantCountry: "USA",
    employmentType: "FULL_TIME",
    skills: ["Python", "SQL"],
    occupationalCategory: "15-1252.00",
  };
  assert.deepEqual(got, expected);
});

Deno.test("fromJobPosting leaves absent fields empty", () => {
  const got = fromJobPosting({ title: "Nurse" }, "f", "f.ndjson", 1);
  assert.equal(got.title, "Nurse");
  assert.equal(got.description, "");
  for (
    const key of [
      "identifier",
      "datePosted",
      "validThrough",
      "employer",
      "country",
      "region",
      "locality",
      "locationText",
      "applicantCountry",
      "employmentType",
      "occupationalCategory",
    ] as const
  ) assert.equal(got[key], null, key);
  assert.equal(got.telecommute, false);
  assert.deepEqual(got.skills, []);
  assert.equal(fromJobPosting({ title: "   " }, "f", "f", 1).title, null);
});

type Variant = [name: string, input: Record<string, unknown>, expected: Partial<RawPosting>];

const VARIANTS: Variant[] = [
  [
    "jobLocation as a list: the first place is read",
    {
      jobLocation: [
        { address: { addressCountry: "DE", addressLocality: "Berlin" } },
        { address: { addressCountry: "FR", addressLocality: "Paris" } },
      ],
    },
    { country: "DE", locality: "Berlin", region: null },
  ],
  [
    "addressCountry as a Country object",
    { jobLocation: { address: { addressCountry: { "@type": "Country", name: "Canada" } } } },
    { country: "Canada" },
  ],
  [
    "address as a string is free-text location",
    { jobLocation: { address: "Austin, TX" } },
    { locationText: "Austin, TX", country: null, region: null, locality: null },
  ],
  [
    "identifier as a PropertyValue",
    { identifier: { "@type": "PropertyValue", name: "ats", value: "REQ-42" } },
    { identifier: "REQ-42" },
  ],
  ["identifier as a number", { identifier: 12345 }, { identifier: "12345" }],
  [
    "identifier as a list of PropertyValues",
    { identifier: [{ value: "first" }, { value: "second" }] },
    { identifier: "first" },
  ],
  [
    "occupationalCategory as a CategoryCode",
    { occupationalCategory: { "@type": "CategoryCode", codeValue: "15-1252", name: "Devs" } },
    { occupationalCategory: "15-1252" },
  ],
  [
    "occupationalCategory as a list",
    { occupationalCategory: ["29-1141.00", "29-1171.00"] },
    { occupationalCategory: "29-1141.00" },
  ],
  ["hiringOrganization as a string", { hiringOrganization: "Acme Corp" }, {
    employer: "Acme Corp",
  }],
  [
    "hiringOrganization as a list",
    { hiringOrganization: [{ name: "First Co" }, { name: "Second Co" }] },
    { employer: "First Co" },
  ],
  [
    "skills as a comma string",
    { skills: "Python, SQL ,, Docker; Kubernetes" },
    { skills: ["Python", "SQL", "Docker", "Kubernetes"] },
  ],
  ["jobLocationType TELECOMMUTE", { jobLocationType: "TELECOMMUTE" }, { telecommute: true }],
  [
    "jobLocationType TELECOMMUTE in a list, any case",
    { jobLocationType: ["ONSITE", " telecommute "] },
    { telecommute: true },
  ],
  ["jobLocationType something else", { jobLocationType: ["ONSITE"] }, { telecommute: false }],
  [
    "applicantLocationRequirements as a list of strings",
    { applicantLocationRequirements: ["Germany", "France"] },
    { applicantCountry: "Germany" },
  ],
  ["employmentType as a list", { employmentType: ["PART_TIME", "CONTRACTOR"] }, {
    employmentType: "PART_TIME",
  }],
  ["datePosted empty", { datePosted: "  " }, { datePosted: null }],
];

Deno.test("fromJobPosting reads lists and nested objects where single values are usual", () => {
  for (const [name, input, expected] of VARIANTS) {
    const got = fromJobPosting({ title: "Engineer", ...input }, "f", "f.ndjson", 1);
    for (const [key, value] of Object.entries(expected)) {
      assert.deepEqual(got[key as keyof RawPosting], value, `${name}: ${key}`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// readFeed

Deno.test("readFeed on NDJSON reports malformed lines by number and yields the good ones", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "feed.ndjson");
    const lines = [
      JSON.stringify({ identifier: "a", title: "Welder" }), // 1
      '{"identifier": "b", "title": "Cook"', // 2: cut off
      "", // 3: blank, skipped but counted
      JSON.stringify([{ identifier: "c", title: "In an array" }]), // 4: not an object
      "null", // 5
      '"just a string"', // 6
      JSON.stringify({ identifier: "d", title: "Baker" }) + "\r", // 7: CRLF
      JSON.stringify({ identifier: "e", title: "Tailor" }), // 8: no final newline
    ];
    await Deno.writeTextFile(path, lines.join("\n"));
    const file: FeedFile = { path, name: "in/feed.ndjson", kind: "ndjson", map: null };
    const { postings, bad } = await readAll(file);
    assert.deepEqual(
      postings.map((p) => [p.line, p.identifier, p.title, p.file, p.feed]),
      [
        [1, "a", "Welder", "in/feed.ndjson", "feed-x"],
        [7, "d", "Baker", "in/feed.ndjson", "feed-x"],
        [8, "e", "Tailor", "in/feed.ndjson", "feed-x"],
      ],
    );
    assert.deepEqual(
      bad,
      [2, 4, 5, 6].map((line) => ({
        feed: "feed-x",
        file: "in/feed.ndjson",
        line,
        reason: "malformed_record",
      })),
    );
  });
});

Deno.test("readFeed on a mapped CSV skips the header and reports rows of the wrong width", async () => {
  await withTempDir(async (dir) => {
    const map = shippedMap("linkedin_datascience_2024_asaniczka");
    const path = join(dir, "jobs.csv");
    const good = row(map, { job_link: "u1", job_title: "Data Analyst", job_type: "Remote" });
    await Deno.writeTextFile(
      path,
      csvText([map.header, good]) +
        "u2,Too few\n" +
        csvText([row(map, { job_link: "u3", job_title: "ML Engineer\nII" })]),
    );
    const { postings, bad } = await readAll({ path, name: "jobs.csv", kind: "csv", map });
    assert.deepEqual(postings.map((p) => [p.line, p.identifier, p.title]), [
      [2, "u1", "Data Analyst"],
      [4, "u3", "ML Engineer\nII"],
    ]);
    assert.deepEqual(bad, [{
      feed: "feed-x",
      file: "jobs.csv",
      line: 3,
      reason: "malformed_record",
    }]);
  });
});

// ---------------------------------------------------------------------------------------------
// discoverFeeds

Deno.test("discoverFeeds finds NDJSON and mapped CSV, skips the rest with a reason, sorted", async () => {
  await withTempDir(async (root) => {
    const dir = join(root, "postings");
    await Deno.mkdir(join(dir, "sub"), { recursive: true });
    const adzuna = shippedMap("adzuna_us_api_2026");
    const adzunaRow = row(adzuna, {
      id: "900001",
      title: "Python Developer",
      company: "{'__CLASS__': 'Adzuna::API::Response::Company', 'display_name': 'Test Co'}",
      created: "2026-01-16T10:44:51Z",
      location: "{'area': ['US', 'Texas', 'Travis County', 'Austin']}",
    });
    await Deno.writeTextFile(join(dir, "b_adzuna.csv"), csvText([adzuna.header, adzunaRow]));
    await Deno.writeTextFile(join(dir, "a_feed.ndjson"), '{"title":"Welder"}\n');
    await Deno.writeTextFile(join(dir, "c_unknown.csv"), "foo,bar\n1,2\n");
    await Deno.writeTextFile(join(dir, "README.md"), "# notes\n");
    await Deno.writeTextFile(join(dir, ".hidden.ndjson"), "{}\n");
    await Deno.writeFile(join(dir, "sub", "more.jsonl.gz"), new Uint8Array());
    const { files, skipped } = await discoverFeeds(dir, MAPS);
    assert.deepEqual(
      files.map((f) => [f.name, f.kind, f.map?.name ?? null, f.path]),
      [
        ["postings/a_feed.ndjson", "ndjson", null, join(dir, "a_feed.ndjson")],
        ["postings/b_adzuna.csv", "csv", "adzuna_us_api_2026", join(dir, "b_adzuna.csv")],
        ["postings/sub/more.jsonl.gz", "ndjson", null, join(dir, "sub", "more.jsonl.gz")],
      ],
    );
    assert.deepEqual(skipped, [
      {
        name: "postings/README.md",
        reason: "not a feed file (.ndjson, .jsonl or .csv, optionally .gz)",
      },
      { name: "postings/c_unknown.csv", reason: "CSV header matches no column map" },
    ]);

    // The recognised CSV reads through its map.
    const { postings, bad } = await readAll(files[1]);
    assert.deepEqual(bad, []);
    assert.equal(postings.length, 1);
    assert.equal(postings[0].employer, "Test Co");
    assert.equal(postings[0].locality, "Austin");

    // A file named directly is found under its own name; --map forces a map on any CSV.
    const single = await discoverFeeds(join(dir, "c_unknown.csv"), MAPS, adzuna);
    assert.deepEqual(single.files.map((f) => [f.name, f.map?.name]), [
      ["c_unknown.csv", "adzuna_us_api_2026"],
    ]);
    assert.deepEqual(single.skipped, []);
  });
});

Deno.test("discoverFeeds matches a gzip CSV, with a BOM, by its exact header", async () => {
  await withTempDir(async (dir) => {
    const map = shippedMap("indeed_datascience_ambreen");
    const text = "\ufeff" +
      csvText([map.header, row(map, { title: "Data Scientist - Austin, TX" })]);
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
    await Deno.writeFile(join(dir, "indeed.csv.gz"), stream);
    // One column more than the map names: not the same feed.
    await Deno.writeTextFile(join(dir, "wider.csv"), [...map.header, "extra"].join(",") + "\n");
    const { files, skipped } = await discoverFeeds(dir, MAPS);
    assert.deepEqual(files.map((f) => f.map?.name), ["indeed_datascience_ambreen"]);
    assert.deepEqual(skipped.map((s) => s.reason), ["CSV header matches no column map"]);
  });
});

/** Where each shipped map's data lives in the shared samples (checked only when present). */
const SHARED = new URL("../../../shared/data/postings/", import.meta.url);
const SHARED_FILES: Record<string, string> = {
  adzuna_us_api_2026: "adzuna_us_api_2026/adzuna_jobs_raw.csv",
  linkedin_2023_24_arshkon_sample500: "linkedin_2023_24_arshkon_sample500/postings_sample.csv",
  linkedin_datascience_2024_asaniczka: "linkedin_datascience_2024_asaniczka/job_postings.csv",
  indeed_datascience_ambreen: "indeed_datascience_ambreen/postings.csv",
};
const sharedPresent = (() => {
  try {
    return Deno.statSync(new URL(SHARED_FILES.adzuna_us_api_2026, SHARED)).isFile;
  } catch {
    return false;
  }
})();

Deno.test({
  name: "shipped maps name the exact header of the shared sample files",
  ignore: !sharedPresent,
  fn: async () => {
    for (const [name, file] of Object.entries(SHARED_FILES)) {
      let header: string[] | null = null;
      for await (const record of parseCsv(readTextChunks(new URL(file, SHARED).pathname))) {
        header = record.fields;
        break;
      }
      assert.deepEqual(header, shippedMap(name).header, name);
    }
  },
});

// ---------------------------------------------------------------------------------------------
// parseColumnMap and the shipped maps

const VALID = {
  name: "test_map",
  format: "csv",
  header: ["id", "job", "when", "where"],
  fields: {
    identifier: "id",
    title: { column: "job", parse: "text" },
    datePosted: { first: [{ column: "when", parse: "date" }, { constant: "2026-01" }] },
    location: "where",
  },
};

Deno.test("parseColumnMap accepts a valid map and resolves column positions", () => {
  const map = parseColumnMap(JSON.stringify(VALID), "test_map.json");
  assert.equal(map.name, "test_map");
  assert.equal(map.file, "test_map.json");
  assert.equal(map.delimiter, ",");
  assert.equal(map.description, "");
  assert.deepEqual([...map.index], [["id", 0], ["job", 1], ["when", 2], ["where", 3]]);
  assert.deepEqual(map.fields.title, { column: "job", parse: "text", separator: undefined });
  const tab = parseColumnMap(JSON.stringify({ ...VALID, delimiter: "\t" }), "t.json");
  assert.equal(tab.delimiter, "\t");
});

type Broken = [name: string, change: Record<string, unknown>, error: RegExp];

const BROKEN: Broken[] = [
  ["unknown field", { fields: { ...VALID.fields, salary: "id" } }, /unknown field "salary"/],
  [
    "unknown parser",
    { fields: { ...VALID.fields, datePosted: { column: "when", parse: "iso" } } },
    /fields\.datePosted: unknown parser "iso"/,
  ],
  [
    "a column not in the header",
    { fields: { ...VALID.fields, employer: "company" } },
    /fields\.employer: column "company" is not in the header/,
  ],
  [
    "a parsed column not in the header",
    { fields: { ...VALID.fields, employer: { column: "company", parse: "text" } } },
    /column "company" is not in the header/,
  ],
  [
    "a column inside first not in the header",
    { fields: { ...VALID.fields, datePosted: { first: ["when", "posted"] } } },
    /fields\.datePosted\.first\[1\]: column "posted" is not in the header/,
  ],
  ["an empty first", { fields: { ...VALID.fields, datePosted: { first: [] } } }, /non-empty list/],
  [
    "a constant that is not a string",
    { fields: { ...VALID.fields, countryDefault: { constant: 1 } } },
    /constant must be a string/,
  ],
  [
    "a separator that is not a string",
    { fields: { ...VALID.fields, skills: { column: "job", parse: "list", separator: 1 } } },
    /separator must be a string/,
  ],
  ["missing title", { fields: { identifier: "id" } }, /fields\.title is required/],
  ["no fields at all", { fields: undefined }, /fields\.title is required/],
  ["format tsv", { format: "tsv" }, /format must be "csv"/],
  ["format missing", { format: undefined }, /format must be "csv"/],
  ["a bad name", { name: "Bad Name" }, /name must be/],
  ["a header that is not a list of strings", { header: ["id", 2] }, /header must be/],
];

Deno.test("parseColumnMap refuses broken maps, naming the file and the rule broken", () => {
  for (const [name, change, error] of BROKEN) {
    const json = JSON.stringify({ ...VALID, ...change });
    assert.throws(() => parseColumnMap(json, "broken.json"), error, name);
    assert.throws(() => parseColumnMap(json, "broken.json"), /^Error: column map broken\.json: /);
  }
  assert.throws(() => parseColumnMap("{not json", "x.json"), /column map x\.json: not valid JSON/);
});

Deno.test("every shipped map parses and matches its file name", async () => {
  const names: string[] = [];
  for await (const entry of Deno.readDir(new URL("./maps/", import.meta.url))) {
    if (entry.name.endsWith(".json")) names.push(entry.name);
  }
  assert.ok(names.length >= 7);
  assert.deepEqual(MAPS.map((m) => m.file), names.sort());
  for (const map of MAPS) {
    assert.equal(`${map.name}.json`, map.file);
    assert.ok(map.fields.title, map.name);
    assert.ok(map.description.length > 0, map.name);
    assert.equal(new Set(map.header).size, map.header.length, `${map.name}: duplicate column`);
  }
});

// ---------------------------------------------------------------------------------------------
// applyMap through the shipped maps

/** Applies a shipped map to one synthetic row. */
function apply(name: string, cells: Record<string, string>): RawPosting {
  const map = shippedMap(name);
  return applyMap(map, row(map, cells), "feed-m", "m.csv", 9);
}

function expectFields(got: RawPosting, expected: Partial<RawPosting>, what: string) {
  for (const [key, value] of Object.entries(expected)) {
    assert.deepEqual(got[key as keyof RawPosting], value, `${what}: ${key}`);
  }
}

const ADZUNA_COMPANY = (name: string) =>
  `{'__CLASS__': 'Adzuna::API::Response::Company', 'display_name': ${name}}`;
const ADZUNA_AREA = (area: string) =>
  `{'area': ${area}, 'display_name': 'Somewhere', '__CLASS__': 'Adzuna::API::Response::Location'}`;

Deno.test("applyMap: Adzuna Python-repr company and location hierarchy", () => {
  const cases: [string, Record<string, string>, Partial<RawPosting>][] = [
    [
      "full hierarchy",
      {
        id: "1",
        title: "Python Developer",
        company: ADZUNA_COMPANY("'Galaxy Widgets Inc'"),
        created: "2026-01-16T10:44:51Z",
        location: ADZUNA_AREA("['US', 'Texas', 'Travis County', 'Austin']"),
        contract_time: "full_time",
      },
      {
        identifier: "1",
        title: "Python Developer",
        employer: "Galaxy Widgets Inc",
        datePosted: { value: "2026-01-16T10:44:51Z", format: "auto" },
        country: "US",
        region: "Texas",
        locality: "Austin",
        locationText: null,
        employmentType: "full_time",
        countryDefault: null,
        remoteColumn: null,
        feed: "feed-m",
        file: "m.csv",
        line: 9,
      },
    ],
    [
      "state only, and a double-quoted name with an apostrophe",
      {
        title: "Nurse",
        company: ADZUNA_COMPANY(`"O'Brien Health"`),
        location: ADZUNA_AREA("['US', 'Ohio']"),
      },
      { employer: "O'Brien Health", country: "US", region: "Ohio", locality: null },
    ],
    [
      "country only",
      { title: "Nurse", location: ADZUNA_AREA("['US']") },
      { country: "US", region: null, locality: null },
    ],
    [
      "escaped quote in a single-quoted name",
      { title: "Nurse", company: ADZUNA_COMPANY(String.raw`'Joe\'s Diner'`) },
      { employer: "Joe's Diner" },
    ],
    [
      "not Python repr",
      { title: "Nurse", company: "Plain Name", location: "Austin, TX" },
      { employer: null, country: null, region: null, locality: null, locationText: null },
    ],
    ["empty cells", { title: "Nurse" }, { employer: null, datePosted: null, country: null }],
  ];
  for (const [name, cells, expected] of cases) {
    expectFields(apply("adzuna_us_api_2026", cells), expected, name);
  }
});

Deno.test("applyMap: LinkedIn epoch-ms dates fall back to listed_time; the feed defaults to US", () => {
  const name = "linkedin_2023_24_arshkon_sample500";
  const both = apply(name, {
    job_id: "921",
    title: "Marketing Coordinator",
    company_name: "Test Realty",
    location: "Princeton, NJ",
    original_listed_time: "1713400000000.0",
    listed_time: "1713500000000.0",
    expiry: "1715990000000.0",
    remote_allowed: "1.0",
    work_type: "FULL_TIME",
  });
  expectFields(both, {
    identifier: "921",
    employer: "Test Realty",
    datePosted: { value: "1713400000000.0", format: "epoch_ms" },
    validThrough: { value: "1715990000000.0", format: "epoch_ms" },
    locationText: "Princeton, NJ",
    country: null,
    countryDefault: "US",
    remoteColumn: true,
    employmentType: "FULL_TIME",
  }, "both dates");
  const fallback = apply(name, { title: "Therapist", listed_time: "1713500000000.0" });
  expectFields(fallback, {
    datePosted: { value: "1713500000000.0", format: "epoch_ms" },
    validThrough: null,
    remoteColumn: null, // an empty flag says nothing
  }, "fallback");
  assert.equal(apply(name, { title: "Therapist" }).datePosted, null);
  assert.equal(apply(name, { title: "T", remote_allowed: "0" }).remoteColumn, false);
  assert.equal(apply(name, { title: "T", remote_allowed: "maybe" }).remoteColumn, null);

  // Through normalisation: the epoch becomes a UTC day, and the default gives the country.
  const normalized = normalizePosting(both).posting!;
  assert.equal(normalized.date_posted, "2024-04-18");
  assert.equal(normalized.valid_through, "2024-05-17"); // 1715990000 s = 2024-05-17T23:53:20Z
  assert.equal(normalized.country, "US");
  assert.equal(normalized.country_rule, "location:us_state");
  const remoteOnly = normalizePosting(apply(name, { title: "Therapist", location: "Remote" }));
  assert.equal(remoteOnly.posting!.country, "US");
  assert.equal(remoteOnly.posting!.country_rule, "feed_default");
  assert.deepEqual(remoteOnly.issues, ["no_date"]);
});

Deno.test("applyMap: asaniczka job_type Remote / Hybrid / Onsite", () => {
  const cases: [string, boolean | "hybrid" | null][] = [
    ["Remote", true],
    ["Hybrid", "hybrid"],
    ["Onsite", false],
    ["On-site", false],
    ["", null],
    ["Contract", null],
  ];
  for (const [label, expected] of cases) {
    const got = apply("linkedin_datascience_2024_asaniczka", {
      job_link: "https://example.test/job/1",
      job_title: "Senior Machine Learning Engineer",
      company: "Example Co",
      job_location: "New Haven, CT",
      job_type: label,
      first_seen: "1/14/2024",
    });
    assert.equal(got.remoteColumn, expected, label);
    assert.deepEqual(got.datePosted, { value: "1/14/2024", format: "auto" });
    assert.equal(got.locationText, "New Haven, CT");
  }
});

Deno.test("applyMap: Indeed title and location split at the last ' - '", () => {
  const cases: [string, string | null, string | null][] = [
    ["Data Scientist - Mountain View, CA", "Data Scientist", "Mountain View, CA"],
    ["Data Scientist - NLP - Seattle, WA", "Data Scientist - NLP", "Seattle, WA"],
    ["Data Scientist", "Data Scientist", null],
    ["Analyst - Remote", "Analyst", "Remote"],
    ["", null, null],
  ];
  for (const [title, expectedTitle, expectedLocation] of cases) {
    const got = apply("indeed_datascience_ambreen", { job_posting: "x.html", title, body: "b" });
    assert.equal(got.title, expectedTitle, title);
    assert.equal(got.locationText, expectedLocation, title);
    assert.equal(got.datePosted, null);
  }
});

Deno.test("applyMap: Hacker News 2013-2018 role from the header, then the body", () => {
  const hn = (header: string, body: string) =>
    apply("hn_whoishiring_2013_2018", {
      header_line: header,
      full_html: `<font color="#000000">${header}<p>${body}</p>`,
    });
  const cases: [string, string, string | null][] = [
    ["Acme | Senior Backend Engineer | Berlin", "We build things.", "Senior Backend Engineer"],
    [
      "Acme | Berlin | Onsite",
      "We're looking for a senior data scientist.",
      "senior data scientist",
    ],
    ["Acme (no recruiters) | Data Engineer | NYC", "", "Data Engineer"],
    ["Acme | Berlin | No recruiters", "Come build rockets with us.", null],
    ["Acme | Berlin", "No recruiters or agencies please.", null],
  ];
  for (const [header, body, expected] of cases) {
    assert.equal(hn(header, body).title, expected, header);
  }

  // The brief's example, with an HTML entity in the body.
  const body = hn("Acme - Boston, MA", "We&#x27;re looking for a full-stack engineer to join us")
    .title;
  assert.ok(body !== null && /engineer$/.test(body), String(body));
  assert.equal(body, "full-stack engineer");
});

Deno.test("applyMap: Hacker News 2013-2018 employer, country, location and month fallback", () => {
  const name = "hn_whoishiring_2013_2018";
  const dated = apply(name, {
    thread_month: "2014-01",
    thread_posted_date: "2014-01-01",
    item_id: "6995653",
    header_line: "Planetary Widgets - Bellevue, WA - Full time",
    full_html: "Planetary Widgets - Bellevue, WA<p>Hiring a flight software engineer.</p>",
    country: "US",
    location_guess: "Bellevue, WA",
  });
  expectFields(dated, {
    identifier: "6995653",
    title: "flight software engineer",
    employer: "Planetary Widgets",
    datePosted: { value: "2014-01-01", format: "auto" },
    country: "US",
    locationText: "Bellevue, WA",
  }, "dated");
  const monthly = apply(name, {
    thread_month: "2015-06",
    header_line: "https://example.test | Remote",
    full_html: "https://example.test | Remote<p>Product designer wanted</p>",
  });
  expectFields(monthly, {
    datePosted: { value: "2015-06", format: "month" },
    employer: null, // a URL is not an employer
    title: "Product designer",
  }, "monthly");
  const posting = normalizePosting(monthly).posting!;
  assert.equal(posting.date_posted, "2015-06-01");
  assert.equal(posting.date_precision, "month");
  assert.equal(apply(name, { header_line: "Acme" }).datePosted, null);
});

Deno.test("applyMap: Hacker News 2026 reads role, employer and location from the first line", () => {
  const got = apply("hn_whoishiring_2026", {
    item_id: "46000001",
    posted_at_utc: "2026-01-02T18:12:25Z",
    text: "Acme Robotics | Staff Software Engineer | Remote (US)<p>We build robots &amp; more.",
  });
  expectFields(got, {
    identifier: "46000001",
    title: "Staff Software Engineer",
    employer: "Acme Robotics",
    locationText: "Acme Robotics | Staff Software Engineer | Remote (US)",
    datePosted: { value: "2026-01-02T18:12:25Z", format: "auto" },
  }, "hn 2026");
});

Deno.test("lone UTF-16 surrogates from JSON escapes become U+FFFD, never ill-formed text", () => {
  const record = JSON.parse(
    '{"title":"Data Engineer \\udfff","description":"Python \\ud800 and SQL",' +
      '"hiringOrganization":{"name":"Acme\\udc00"},"skills":["R\\ud83d"]}',
  );
  const posting = fromJobPosting(record, "feed", "feed.ndjson", 1);
  assert.equal(posting.title, "Data Engineer \ufffd");
  assert.equal(posting.description, "Python \ufffd and SQL");
  assert.equal(posting.employer, "Acme\ufffd");
  assert.deepEqual(posting.skills, ["R\ufffd"]);
  for (const value of [posting.title, posting.description, posting.employer]) {
    assert.ok(value!.isWellFormed());
  }
});
