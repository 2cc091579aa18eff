import assert from "node:assert/strict";
import { join } from "node:path";
import { employerPool, syntheticPostings, writeSyntheticFeed } from "./synthetic.ts";

type Posting = Record<string, unknown> & {
  title?: string;
  description: string;
  datePosted: string;
  validThrough?: string;
  jobLocation?: { address: Record<string, string> };
  jobLocationType?: string;
  applicantLocationRequirements?: { name: string };
  hiringOrganization: { name: string };
};

const COUNT = 20_000;
const SAMPLE = [...syntheticPostings({ count: COUNT, seed: 7 })] as Posting[];
const END = "2026-05-05";
const START = "2026-01-06"; // 120 days ending at END, both included

const REMOTE = /\bremote\b|work from home/i;
const NEGATED = /\b(?:no|not) remote\b|remote work is not available/i;
const HYBRID = /\bhybrid\b|days in office/i;
const US_SPELLINGS = new Set([
  "US",
  "us",
  "USA",
  "United States",
  "United States of America",
  "U.S.",
]);
// deno-fmt-ignore
const US_STATE_NAMES = new Set(["Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware", "District of Columbia", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah", "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming"]);
const GARBAGE = new Set(["Atlantis", "N/A", "Unknown", "XX", "-", "Narnia", "TBD"]);

const text = (p: Posting) => `${p.title ?? ""}\n${p.description}`;
const isDate = (s: string) => {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(s) ? Date.parse(s + "T00:00:00Z") : NaN;
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(s);
};
const isBad = (p: Posting) => !p.title?.trim() || !isDate(p.datePosted);
const isRemote = (p: Posting) =>
  p.jobLocationType === "TELECOMMUTE" || (REMOTE.test(text(p)) && !NEGATED.test(text(p)));
const share = (predicate: (p: Posting) => boolean) => SAMPLE.filter(predicate).length / COUNT;
const near = (name: string, actual: number, expected: number, tolerance: number) =>
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${name}: ${(actual * 100).toFixed(2)}% is not within ${expected * 100} ± ${tolerance * 100}%`,
  );

Deno.test("same seed and count give identical postings; another seed differs", () => {
  const a = [...syntheticPostings({ count: 3000, seed: 42 })].map((p) => JSON.stringify(p));
  const b = [...syntheticPostings({ count: 3000, seed: 42 })].map((p) => JSON.stringify(p));
  const c = [...syntheticPostings({ count: 3000, seed: 43 })].map((p) => JSON.stringify(p));
  assert.deepEqual(a, b);
  assert.ok(a.filter((line, i) => line !== c[i]).length > 2900);
});

Deno.test("writeSyntheticFeed streams byte-identical NDJSON of valid JobPosting lines", async () => {
  const dir = await Deno.makeTempDir({ prefix: "synthetic-test-" });
  try {
    const options = { count: 2000, seed: 42, end: "2025-12-31", days: 60 };
    const first = await writeSyntheticFeed(join(dir, "a.ndjson"), options);
    const second = await writeSyntheticFeed(join(dir, "b.ndjson"), options);
    const a = await Deno.readFile(join(dir, "a.ndjson"));
    const b = await Deno.readFile(join(dir, "b.ndjson"));
    assert.equal(first, a.length);
    assert.equal(second, b.length);
    assert.deepEqual(a, b);
    const lines = new TextDecoder().decode(a).split("\n");
    assert.equal(lines.pop(), "");
    assert.equal(lines.length, 2000);
    for (const line of lines) assert.equal(JSON.parse(line)["@type"], "JobPosting");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postings hold only the documented fields, never null", () => {
  const allowed = new Set([
    "@type",
    "identifier",
    "title",
    "description",
    "datePosted",
    "validThrough",
    "employmentType",
    "hiringOrganization",
    "jobLocation",
    "jobLocationType",
    "applicantLocationRequirements",
    "skills",
    "occupationalCategory",
  ]);
  const types = new Set(["FULL_TIME", "PART_TIME", "CONTRACTOR", "TEMPORARY", "INTERN"]);
  SAMPLE.forEach((p, i) => {
    assert.equal(p["@type"], "JobPosting");
    assert.equal(p.identifier, `syn-${String(i + 1).padStart(9, "0")}`);
    for (const [key, value] of Object.entries(p)) {
      assert.ok(allowed.has(key), key);
      assert.notEqual(value, null, key);
    }
    assert.ok(p.description.length >= 300 && p.description.length <= 2000, p.identifier as string);
    if (p.employmentType !== undefined) assert.ok(types.has(p.employmentType as string));
    const skills = p.skills as string[] | undefined;
    if (skills) assert.ok(skills.length >= 1 && skills.length <= 6);
    if (p.occupationalCategory) {
      assert.match(p.occupationalCategory as string, /^\d\d-\d{4}\.\d\d$/);
    }
  });
  near("occupationalCategory", share((p) => p.occupationalCategory !== undefined), 0.3, 0.02);
  near("employmentType absent", share((p) => p.employmentType === undefined), 0.04, 0.01);
  assert.ok(new Set(SAMPLE.map((p) => p.title)).size > 2000, "titles vary");
  assert.ok(new Set(SAMPLE.map((p) => p.hiringOrganization.name)).size > 1500, "employers vary");
});

Deno.test("dates stay in the span, weekdays outweigh weekends, and the trend rises", () => {
  const valid = SAMPLE.filter((p) => isDate(p.datePosted));
  let previous = START;
  const perWeekday = new Array(7).fill(0);
  for (const p of valid) {
    assert.ok(p.datePosted >= previous && p.datePosted <= END, p.datePosted);
    previous = p.datePosted;
    perWeekday[new Date(p.datePosted + "T00:00:00Z").getUTCDay()]++;
    if (p.validThrough) assert.ok(p.validThrough > p.datePosted);
  }
  assert.equal(valid[0].datePosted, START);
  const weekday = perWeekday.slice(1, 6).reduce((a, b) => a + b) / 5;
  const weekend = (perWeekday[0] + perWeekday[6]) / 2;
  assert.ok(weekday > 2.5 * weekend, `${weekday} vs ${weekend}`);
  const first30 = valid.filter((p) => p.datePosted < "2026-02-05").length;
  const last30 = valid.filter((p) => p.datePosted > "2026-04-05").length;
  assert.ok(last30 > first30 * 1.1, `${first30} -> ${last30}`);
  near(
    "validThrough 30-60 days",
    share((p) => {
      if (!p.validThrough || !isDate(p.datePosted)) return false;
      const days = (Date.parse(p.validThrough) - Date.parse(p.datePosted)) / 86_400_000;
      return days >= 30 && days <= 60;
    }),
    0.7,
    0.02,
  );
  assert.ok(share((p) => p.validThrough !== undefined && p.validThrough < END) > 0.2, "expired");
});

Deno.test("remote share, the hybrid share and the negation trap", () => {
  near("remote", share(isRemote), 0.18, 0.03);
  const telecommute = share((p) => p.jobLocationType === "TELECOMMUTE");
  near("TELECOMMUTE", telecommute, 0.09, 0.015);
  near("remote by phrase only", share(isRemote) - telecommute, 0.09, 0.015);
  near("hybrid", share((p) => HYBRID.test(text(p))), 0.08, 0.015);
  const negated = SAMPLE.filter((p) => NEGATED.test(text(p)));
  assert.ok(negated.length > COUNT * 0.02, `only ${negated.length} negated postings`);
  for (const phrase of [/no remote/i, /not remote/i, /remote work is not available/i]) {
    assert.ok(negated.some((p) => phrase.test(p.description)), String(phrase));
  }
  for (const p of negated) assert.equal(p.jobLocationType, undefined);
  for (const p of SAMPLE) {
    if (HYBRID.test(text(p))) assert.ok(!REMOTE.test(text(p)), p.identifier as string);
    if (!isRemote(p) && !NEGATED.test(text(p))) assert.ok(!/remote/i.test(text(p)));
  }
});

Deno.test("country shares and spellings", () => {
  const country = (p: Posting) => p.jobLocation?.address.addressCountry;
  const isUs = (p: Posting) => {
    const c = country(p);
    if (c !== undefined) return US_SPELLINGS.has(c);
    const region = p.jobLocation?.address.addressRegion;
    if (region !== undefined) return US_STATE_NAMES.has(region);
    return US_SPELLINGS.has(p.applicantLocationRequirements?.name ?? "");
  };
  near("US", share(isUs), 0.62, 0.03);
  near(
    "GB",
    share((p) => ["GB", "gb", "GBR", "United Kingdom", "UK"].includes(country(p)!)),
    0.09,
    0.02,
  );
  near("alpha-2", share((p) => /^[A-Z]{2}$/.test(country(p) ?? "")), 0.83, 0.03);
  near(
    "alpha-3",
    share((p) => /^[A-Z]{3}$/.test(country(p) ?? "") && country(p) !== "TBD"),
    0.03,
    0.01,
  );
  near(
    "names",
    share((p) => (country(p)?.length ?? 0) > 3 && !GARBAGE.has(country(p)!)),
    0.1,
    0.02,
  );
  near(
    "state name, no country",
    share((p) =>
      country(p) === undefined && US_STATE_NAMES.has(p.jobLocation?.address.addressRegion ?? "")
    ),
    0.02,
    0.006,
  );
  near("garbage", share((p) => GARBAGE.has(country(p) ?? "")), 0.01, 0.004);
});

Deno.test("bad records and reposts", () => {
  near("bad records", share(isBad), 0.006, 0.003);
  assert.ok(SAMPLE.some((p) => p.title === undefined));
  assert.ok(SAMPLE.some((p) => p.title === ""));
  assert.ok(SAMPLE.some((p) => !isDate(p.datePosted) && /^\d{4}-\d{2}-\d{2}$/.test(p.datePosted)));
  const lastSeen = new Map<string, number>();
  let within30 = 0, after40 = 0;
  for (const p of SAMPLE) {
    if (isBad(p)) continue;
    const key = JSON.stringify([p.title, p.hiringOrganization.name, p.jobLocation ?? null]);
    const day = Date.parse(p.datePosted) / 86_400_000;
    const previous = lastSeen.get(key);
    if (previous !== undefined && day - previous <= 30) within30++;
    if (previous !== undefined && day - previous > 40) after40++;
    lastSeen.set(key, day);
  }
  near("reposts within 30 days", within30 / COUNT, 0.08, 0.015);
  near("reposts after 40 days", after40 / COUNT, 0.01, 0.004);
});

Deno.test("the employer pool holds 2,000 distinct names, the same for every seed", () => {
  const pool = employerPool();
  assert.equal(new Set(pool).size, 2000);
  assert.deepEqual(employerPool(), pool);
  const names = new Set(pool);
  const other = [...syntheticPostings({ count: 2000, seed: 99 })] as Posting[];
  for (const p of [...SAMPLE, ...other]) {
    const name = p.hiringOrganization.name;
    assert.ok(names.has(name) || name === "Confidential", name);
  }
});

Deno.test("--end and --days move the span", () => {
  const postings = [...syntheticPostings({ count: 5000, seed: 3, end: "2025-12-31", days: 30 })];
  const dates = postings.map((p) => p.datePosted as string).filter(isDate);
  assert.equal(dates[0], "2025-12-02");
  assert.equal(dates[dates.length - 1], "2025-12-31");
  assert.ok(dates.every((d) => d >= "2025-12-02" && d <= "2025-12-31"));
});

Deno.test("bad options throw before anything is generated", () => {
  assert.throws(
    () => syntheticPostings({ count: 1, seed: 1, end: "2026-02-30" }).next(),
    RangeError,
  );
  assert.throws(() => syntheticPostings({ count: 1, seed: 1, days: 0 }).next(), RangeError);
  assert.throws(() => syntheticPostings({ count: -1, seed: 1 }).next(), RangeError);
  assert.throws(() => syntheticPostings({ count: 1, seed: 1.5 }).next(), RangeError);
  assert.equal([...syntheticPostings({ count: 0, seed: 1 })].length, 0);
});

Deno.test("the CLI exits 2 with usage on bad arguments", async () => {
  const script = new URL("./synthetic.ts", import.meta.url).pathname;
  const run = (...args: string[]) =>
    new Deno.Command(Deno.execPath(), { args: ["run", "-A", script, ...args], stdout: "null" })
      .output();
  const missing = await run("--count", "10", "--seed", "1");
  assert.equal(missing.code, 2);
  const stderr = new TextDecoder().decode(missing.stderr);
  assert.match(stderr, /--out is required/);
  assert.match(stderr, /usage: deno task gen:postings/);
  const badDays = await run("--count", "10", "--seed", "1", "--out", "/dev/null", "--days", "x");
  assert.equal(badDays.code, 2);
  assert.equal((await run("--bogus")).code, 2);
});
