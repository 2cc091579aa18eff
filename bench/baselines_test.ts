import assert from "node:assert/strict";
import {
  type BaselineRanker,
  bm25Ranker,
  ftsTokens,
  type OccupationDoc,
  postgresFtsRanker,
} from "./baselines.ts";

const NURSE = "29-1141.00";
const TRUCK = "53-3032.00";
const DEVELOPER = "15-1252.00";
const AIDE = "31-1131.00";

const DOCS: OccupationDoc[] = [
  { onetCode: NURSE, titles: ["Registered Nurse", "RN", "Staff Nurse", "Charge Nurse"] },
  {
    onetCode: TRUCK,
    titles: ["Truck Driver", "Tractor Trailer Driver", "Heavy Truck Driver", "Semi Truck Driver"],
  },
  {
    onetCode: DEVELOPER,
    titles: ["Software Developer", "Software Engineer", "Application Developer", "Programmer"],
  },
  {
    onetCode: AIDE,
    titles: ["Nursing Assistant", "Certified Nursing Assistant", "Nurse Aide", "Patient Aide"],
  },
];

/** The two rankers under test, built on the same documents. */
const FACTORIES: [string, (docs: OccupationDoc[]) => Promise<BaselineRanker>][] = [
  ["bm25", (docs) => Promise.resolve(bm25Ranker(docs))],
  ["postgres", postgresFtsRanker],
];

/** Runs body once per ranker, as a test step, closing the ranker afterwards. */
async function forEachRanker(
  t: Deno.TestContext,
  docs: OccupationDoc[],
  body: (ranker: BaselineRanker, kind: string) => Promise<void>,
): Promise<void> {
  for (const [kind, create] of FACTORIES) {
    await t.step(kind, async () => {
      const ranker = await create(docs);
      try {
        await body(ranker, kind);
      } finally {
        await ranker.close();
      }
    });
  }
}

Deno.test("ftsTokens follows unicode61: lower case, no diacritics, split on non-alphanumerics", () => {
  assert.deepEqual(ftsTokens("Registered Nurse (RN)"), ["registered", "nurse", "rn"]);
  assert.deepEqual(ftsTokens("Café-Owner/ÉCOLE naïve"), ["cafe", "owner", "ecole", "naive"]);
  assert.deepEqual(ftsTokens("Cafe\u0301 x\u0332y"), ["cafe", "x", "y"]);
  assert.deepEqual(ftsTokens("snake_case 3½ Straße İstanbul"), [
    "snake",
    "case",
    "3½",
    "straße",
    "istanbul",
  ]);
  assert.deepEqual(ftsTokens("ế ά"), ["ế", "ά"]);
  assert.deepEqual(ftsTokens("running runs"), ["running", "runs"]);
  assert.deepEqual(ftsTokens("  --  "), []);
});

Deno.test("rankers order the obvious occupation first", async (t) => {
  await forEachRanker(t, DOCS, async (ranker) => {
    assert.deepEqual(await ranker.rank("Registered Nurse", 10), [NURSE, AIDE]);
    assert.deepEqual((await ranker.rank("heavy truck driver", 10))[0], TRUCK);
    assert.deepEqual((await ranker.rank("senior software engineer", 10))[0], DEVELOPER);
    assert.deepEqual((await ranker.rank("Certified Nursing Assistant", 10))[0], AIDE);
  });
});

Deno.test("rankers return [] when nothing matches", async (t) => {
  await forEachRanker(t, DOCS, async (ranker) => {
    assert.deepEqual(await ranker.rank("xyzzy", 10), []);
    assert.deepEqual(await ranker.rank("the of", 10), []);
    assert.deepEqual(await ranker.rank("", 10), []);
    assert.deepEqual(await ranker.rank("  & | ! ( ) : * ' \"", 10), []);
  });
});

Deno.test("rankers truncate to k", async (t) => {
  await forEachRanker(t, DOCS, async (ranker) => {
    assert.deepEqual(await ranker.rank("registered nurse", 1), [NURSE]);
    assert.deepEqual(await ranker.rank("registered nurse", 0), []);
    assert.deepEqual(await ranker.rank("registered nurse", 2.9), [NURSE, AIDE]);
    const all = await ranker.rank("nurse truck software driver", 100);
    assert.deepEqual(all.length, 4);
    assert.deepEqual(await ranker.rank("nurse truck software driver", 3), all.slice(0, 3));
  });
});

Deno.test("rankers are deterministic and break ties by O*NET code", async (t) => {
  const twins: OccupationDoc[] = [
    { onetCode: "43-9999.00", titles: ["Office Clerk"] },
    { onetCode: "43-1111.00", titles: ["Office Clerk"] },
    { onetCode: "43-5555.00", titles: ["Office Clerk"] },
    ...DOCS,
  ];
  const expected = ["43-1111.00", "43-5555.00", "43-9999.00"];
  await forEachRanker(t, twins, async (ranker) => {
    assert.deepEqual(await ranker.rank("clerk", 10), expected);
    assert.deepEqual(await ranker.rank("Clerk", 10), expected);
    const first = await ranker.rank("nurse driver developer clerk", 10);
    assert.deepEqual(await ranker.rank("nurse driver developer clerk", 10), first);
  });
  // Input order does not matter.
  await forEachRanker(t, [...twins].reverse(), async (ranker) => {
    assert.deepEqual(await ranker.rank("clerk", 10), expected);
  });
});

Deno.test("bm25 weighs rare terms above common ones and repeated query tokens once", async () => {
  const ranker = bm25Ranker(DOCS);
  // "nurse" is in half the rows, so its IDF is clamped to 1e-6: "aide" (one row) decides.
  assert.deepEqual(await ranker.rank("nurse aide", 10), [AIDE, NURSE]);
  // Counted three times, "registered" (1 of 7 tokens) would beat "aide" (2 of 9); once, it loses.
  assert.deepEqual(await ranker.rank("registered registered registered aide", 10), [AIDE, NURSE]);
  // Rows that only match a clamped term are still ordered by its frequency and row length; an
  // IDF of 0 would tie them and put the lower code first.
  const clamped = bm25Ranker([
    { onetCode: "10-0001.00", titles: ["Nurse Educator", "Program Director"] },
    { onetCode: "20-0002.00", titles: ["Nurse"] },
    { onetCode: "30-0003.00", titles: ["Welder"] },
    { onetCode: "40-0004.00", titles: ["Baker"] },
  ]);
  assert.deepEqual(await clamped.rank("nurse", 10), ["20-0002.00", "10-0001.00"]);
});

Deno.test("rankers reject duplicate O*NET codes", async () => {
  const dup = [...DOCS, { onetCode: NURSE, titles: ["Nurse"] }];
  for (const [, create] of FACTORIES) {
    await assert.rejects(async () => await (await create(dup)).close(), /duplicate O\*NET code/);
  }
});
