/** Unit tests of posting normalisation: dates, HTML, employers, issues and country resolution. */
import assert from "node:assert/strict";
import type { RawDate, RawPosting } from "./feeds.ts";
import {
  htmlToText,
  normalizeEmployer,
  normalizePosting,
  parseDate,
  type RecordIssue,
} from "./normalize.ts";

type DateCase = [
  value: string,
  format: RawDate["format"],
  expected: string | null,
  precision?: "month",
];

const DATES: DateCase[] = [
  // ISO days and date-times (the UTC day).
  ["2026-05-05", "auto", "2026-05-05"],
  [" 2026-05-05 ", "auto", "2026-05-05"],
  ["2026-01-16T10:44:51Z", "auto", "2026-01-16"],
  ["2026-01-16T10:44:51.123Z", "auto", "2026-01-16"],
  ["2026-01-16T23:30:00-05:00", "auto", "2026-01-17"],
  ["2026-01-16T01:30:00+09:00", "auto", "2026-01-15"],
  ["2026-01-16 10:44:51", "auto", "2026-01-16"],
  ["2026-01-16T23:59:59", "auto", "2026-01-16"],
  // M/D/YYYY.
  ["1/14/2024", "auto", "2024-01-14"],
  ["12/31/2025", "auto", "2025-12-31"],
  ["02/29/2024", "auto", "2024-02-29"],
  ["2/29/2025", "auto", null],
  ["13/1/2024", "auto", null],
  // Epoch milliseconds and seconds, as the map declares them.
  ["1713400000000", "epoch_ms", "2024-04-18"],
  ["1713400000000.0", "epoch_ms", "2024-04-18"],
  ["1713400000", "epoch_s", "2024-04-18"],
  ["1713400000", "epoch_ms", null], // 1970: out of range
  ["soon", "epoch_ms", null],
  // Month precision: the 1st of the month.
  ["2014-01", "auto", "2014-01-01", "month"],
  ["2014-01", "month", "2014-01-01", "month"],
  ["2014-13", "month", null],
  ["2014-01-05", "month", null],
  // Impossible dates.
  ["2026-02-30", "auto", null],
  ["2026-13-01", "auto", null],
  ["2026-00-10", "auto", null],
  ["2025-02-29", "auto", null],
  ["2024-02-29", "auto", "2024-02-29"],
  ["2026-02-30T10:00:00Z", "auto", null],
  ["2026-04-31 08:00:00", "auto", null],
  // Out of range years (1990-2100).
  ["1989-12-31", "auto", null],
  ["1990-01-01", "auto", "1990-01-01"],
  ["2100-12-31", "auto", "2100-12-31"],
  ["2101-01-01", "auto", null],
  ["0999-01-01", "auto", null],
  ["1/1/1970", "auto", null],
  ["1900-01", "month", null],
  ["4102444800000", "epoch_ms", "2100-01-01"],
  ["4133980800000", "epoch_ms", null], // 2101-01-01
  // Garbage.
  ["", "auto", null],
  ["sometime soon", "auto", null],
  ["2026-13-45", "auto", null],
  ["20260505", "auto", null],
  ["2026/05/05", "auto", null],
  ["May 5, 2026", "auto", null],
  ["1713400000000", "auto", null],
];

Deno.test("parseDate reads the documented forms and refuses the rest", () => {
  for (const [value, format, expected, precision] of DATES) {
    const got = parseDate({ value, format });
    const want = expected === null ? null : { day: expected, precision: precision ?? "day" };
    assert.deepEqual(got, want, `${JSON.stringify(value)} as ${format}`);
  }
});

Deno.test("parseDate reads a date-time without an offset as written, whatever the machine's zone", async () => {
  // A naive date-time must not take the build machine's zone: run in a zone west of UTC.
  const source = new URL("./normalize.ts", import.meta.url).href;
  const code = `import { parseDate } from ${JSON.stringify(source)};
    console.log(JSON.stringify(["2026-01-16 23:30:00", "2026-01-16T20:00", "2026-01-16T23:30:00Z"]
      .map((value) => parseDate({ value, format: "auto" })?.day)));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", code],
    env: { TZ: "America/Los_Angeles" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(out.stdout)), [
    "2026-01-16",
    "2026-01-16",
    "2026-01-16",
  ]);
});

const HTML: [input: string, expected: string][] = [
  ["plain text, untouched", "plain text, untouched"],
  ["<p>One</p><p>Two</p>", "\nOne \nTwo "],
  ["a<br>b<br/>c<BR />d", "a\nb\nc\nd"],
  ["<ul><li>x</li><li>y</li></ul>", " \nx \ny  "],
  ['<div class="a">x</div><h2>T</h2><tr><td>c</td></tr>', "\nx \nT \n c  "],
  ["<b>bold</b> and <a href='u'>link</a>", " bold  and  link "],
  ["Fish &amp; Chips &lt;3 &gt; &quot;q&quot; it&apos;s&nbsp;ok", `Fish & Chips <3 > "q" it's ok`],
  ["caf&#233; caf&#xE9; caf&#XE9; &#x1F600;", "café café café 😀"],
  ["&AMP; &copy; &unknown; & alone", "& &copy; &unknown; & alone"],
  // Code points that are not characters become a space, never a lone surrogate.
  ["a&#xD800;b&#55357;c&#xDFFF;d", "a b c d"],
  ["a&#0;b&#x110000;c&#99999999999;d", "a b c d"],
];

Deno.test("htmlToText turns block tags into line breaks and decodes entities", () => {
  for (const [input, expected] of HTML) {
    const got = htmlToText(input);
    assert.equal(got, expected, JSON.stringify(input));
    assert.ok(got.isWellFormed(), `lone surrogate from ${JSON.stringify(input)}`);
  }
});

const EMPLOYERS: [input: string, expected: string][] = [
  ["Acme", "acme"],
  ["Acme, Inc.", "acme"],
  ["ACME INC", "acme"],
  ["Acme Incorporated", "acme"],
  ["Acme Corp.", "acme"],
  ["Acme Corporation", "acme"],
  ["Acme L.L.C.", "acme"],
  ["Acme, LLC", "acme"],
  ["Acme Co., Ltd.", "acme"],
  ["Acme Limited", "acme"],
  ["Müller GmbH", "muller"],
  ["Société Générale S.A.", "societe generale"],
  ["Société Générale SA", "societe generale"],
  ["Siemens AG", "siemens"],
  ["Siemens A.G.", "siemens"],
  ["Tesco P.L.C.", "tesco"],
  ["Tesco PLC", "tesco"],
  ["Philips B.V.", "philips"],
  ["Atlassian Pty Ltd", "atlassian"],
  ["AT&T Inc.", "at and t"],
  ["McDonald's", "mcdonalds"],
  ["  Data-Driven   Solutions!!  ", "data driven solutions"],
  ["Incubator Labs", "incubator labs"], // a suffix word inside another word stays
  ["Inc.", ""],
];

Deno.test("normalizeEmployer drops legal suffixes, punctuation and case", () => {
  for (const [input, expected] of EMPLOYERS) {
    assert.equal(normalizeEmployer(input), expected, JSON.stringify(input));
  }
});

/** A raw posting with every field empty except a title; override what a case needs. */
function raw(overrides: Partial<RawPosting> = {}): RawPosting {
  return {
    feed: "feed-n",
    file: "n.ndjson",
    line: 3,
    identifier: "id-1",
    title: "Software Engineer",
    description: "",
    datePosted: { value: "2026-05-05", format: "auto" },
    validThrough: null,
    employer: null,
    country: "US",
    countryDefault: null,
    region: null,
    locality: null,
    locationText: null,
    telecommute: false,
    remoteColumn: null,
    applicantCountry: null,
    employmentType: null,
    skills: [],
    occupationalCategory: null,
    ...overrides,
  };
}

Deno.test("normalizePosting builds the staged record", () => {
  const { posting, issues } = normalizePosting(raw({
    title: "  Senior <b>Software</b>\n Engineers ",
    description: "<p>Build things.</p><p>This is a fully remote role.</p>",
    datePosted: { value: "2026-05-05T10:00:00Z", format: "auto" },
    validThrough: { value: "2026-06-30", format: "auto" },
    employer: "Northwind Labs, Inc.",
    country: null,
    region: "Texas",
    locality: "São Paulo",
    employmentType: "FULL_TIME",
  }));
  assert.deepEqual(issues, []);
  assert.deepEqual(posting, {
    feed: "feed-n",
    source_file: "n.ndjson",
    source_line: 3,
    source_id: "id-1",
    title: "Senior Software Engineers",
    title_norm: "senior software engineer",
    description: "\nBuild things. \nThis is a fully remote role. ",
    employer: "Northwind Labs, Inc.",
    employer_norm: "northwind labs",
    date_posted: "2026-05-05",
    date_precision: "day",
    valid_through: "2026-06-30",
    country: "US",
    country_rule: "region:us_state",
    region: "texas",
    locality: "sao paulo",
    remote: true,
    hybrid: false,
    remote_rule: "description_phrase",
    employment_type: "FULL_TIME",
  });
});

type IssueCase = [
  name: string,
  overrides: Partial<RawPosting>,
  issues: RecordIssue[],
  kept: boolean,
];

const ISSUES: IssueCase[] = [
  ["a clean record", {}, [], true],
  ["no title", { title: null }, ["no_title"], false],
  ["a blank title", { title: "  \n " }, ["no_title"], false],
  ["a title of tags only", { title: "<b></b>" }, ["no_title"], false],
  ["a title of stopwords only", { title: "and / of" }, ["no_title"], false],
  // A dropped record reports only no_title, not its other problems.
  [
    "no title and nothing else",
    { title: null, datePosted: null, country: null },
    ["no_title"],
    false,
  ],
  ["an unparseable date", { datePosted: { value: "sometime soon", format: "auto" } }, [
    "unparseable_date",
  ], true],
  ["an impossible date", { datePosted: { value: "2026-02-30", format: "auto" } }, [
    "unparseable_date",
  ], true],
  ["no date", { datePosted: null }, ["no_date"], true],
  ["an unknown country", { country: "Atlantis" }, ["unknown_country"], true],
  ["no country at all", { country: null }, ["unknown_country"], true],
  [
    "no date and no country",
    { datePosted: null, country: null },
    ["no_date", "unknown_country"],
    true,
  ],
  // An unparseable validThrough is not an issue: the posting simply has no expiry.
  ["a bad validThrough", { validThrough: { value: "never", format: "auto" } }, [], true],
];

Deno.test("normalizePosting reports issues; only a missing title drops the record", () => {
  for (const [name, overrides, issues, kept] of ISSUES) {
    const got = normalizePosting(raw(overrides));
    assert.deepEqual(got.issues, issues, name);
    assert.equal(got.posting !== null, kept, name);
    if (got.posting && issues.includes("unparseable_date")) {
      assert.equal(got.posting.date_posted, null, name);
      assert.equal(got.posting.date_precision, null, name);
    }
    if (got.posting && issues.includes("unknown_country")) {
      assert.equal(got.posting.country, null, name);
      assert.equal(got.posting.country_rule, null, name);
    }
  }
  const monthly = normalizePosting(raw({ datePosted: { value: "2014-01", format: "month" } }));
  assert.equal(monthly.posting?.date_posted, "2014-01-01");
  assert.equal(monthly.posting?.date_precision, "month");
});

type CountryCase = [
  name: string,
  overrides: Partial<RawPosting>,
  country: string | null,
  rule: string | null,
];

const NONE: Partial<RawPosting> = { country: null };

const COUNTRIES: CountryCase[] = [
  ["the country field", { country: "DE" }, "DE", "country:alpha2"],
  ["a country name", { country: "Germany" }, "DE", "country:name"],
  [
    "the country field beats the location",
    {
      country: "CA",
      locationText: "Austin, TX",
      region: "Texas",
      applicantCountry: "USA",
      countryDefault: "US",
    },
    "CA",
    "country:alpha2",
  ],
  [
    "an unknown country field falls through to the location",
    {
      country: "Atlantis",
      locationText: "Austin, TX",
    },
    "US",
    "location:us_state",
  ],
  ["location text", { ...NONE, locationText: "Austin, TX" }, "US", "location:us_state"],
  [
    "location text beats region",
    {
      ...NONE,
      locationText: "Toronto, ON",
      region: "Texas",
    },
    "CA",
    "location:ca_province",
  ],
  [
    "a remote qualifier",
    { ...NONE, locationText: "Remote (US)" },
    "US",
    "location:remote_qualifier",
  ],
  [
    "region with locality",
    { ...NONE, region: "Texas", locality: "Austin" },
    "US",
    "region:us_state",
  ],
  // Read as "locality, region": CA is California here, not Canada.
  [
    "region CA is a state",
    { ...NONE, region: "CA", locality: "San Diego" },
    "US",
    "region:us_state",
  ],
  [
    "region ON is a province",
    { ...NONE, region: "ON", locality: "Ottawa" },
    "CA",
    "region:ca_province",
  ],
  [
    "region beats the applicant location",
    {
      ...NONE,
      region: "Texas",
      applicantCountry: "Germany",
    },
    "US",
    "region:us_state",
  ],
  ["applicant location", { ...NONE, applicantCountry: "USA" }, "US", "applicant_location:alias"],
  [
    "applicant location beats the default",
    {
      ...NONE,
      applicantCountry: "Germany",
      countryDefault: "US",
    },
    "DE",
    "applicant_location:name",
  ],
  [
    "the feed default",
    { ...NONE, locationText: "Remote", countryDefault: "US" },
    "US",
    "feed_default",
  ],
  ["an unknown default", { ...NONE, countryDefault: "Atlantis" }, null, null],
  ["nothing resolves", { ...NONE, locationText: "Anywhere", region: "Nowhere" }, null, null],
];

Deno.test("normalizePosting resolves the country in the documented order and records the rule", () => {
  for (const [name, overrides, country, rule] of COUNTRIES) {
    const { posting, issues } = normalizePosting(raw(overrides));
    assert.ok(posting, name);
    assert.equal(posting.country, country, name);
    assert.equal(posting.country_rule, rule, name);
    assert.equal(issues.includes("unknown_country"), country === null, name);
  }
});

Deno.test("normalizePosting splits free-text location into locality and region", () => {
  const cases: [Partial<RawPosting>, string | null, string | null][] = [
    [{ locationText: "Austin, TX" }, "austin", "tx"],
    [{ locationText: "London, Ontario, Canada" }, "london", "ontario"],
    [{ locationText: "Remote" }, null, null],
    // A structured address wins over the text.
    [{ locationText: "Austin, TX", locality: "Dallas" }, "dallas", null],
  ];
  for (const [overrides, locality, region] of cases) {
    const { posting } = normalizePosting(raw(overrides));
    assert.equal(posting?.locality, locality, JSON.stringify(overrides));
    assert.equal(posting?.region, region, JSON.stringify(overrides));
  }
});
