/** The occupation size prior from an OEWS national file. */
import assert from "node:assert/strict";
import { occupationEmployment, parseOewsNational } from "./employment.ts";

const CSV = [
  "AREA,OCC_CODE,OCC_TITLE,O_GROUP,TOT_EMP",
  '99,00-0000,All Occupations,total,"155,495,730"',
  "99,13-2020,Property Appraisers and Assessors,broad,60000",
  "99,21-1010,Counselors,broad,1000000",
  "99,21-1013,Marriage and Family Therapists,detailed,600000",
  '99,21-1018,"Substance Abuse, Behavioral Disorder, and Mental Health Counselors",detailed,400000',
  "99,29-1141,Registered Nurses,detailed,3300000",
  "99,29-1140,Registered Nurses,broad,3300000",
  "99,55-1011,Air Crew Officers,detailed,**",
].join("\n");

Deno.test("parseOewsNational keeps detailed and broad rows with a number", () => {
  const soc = parseOewsNational(CSV);
  assert.equal(soc.get("29-1141"), 3_300_000);
  assert.equal(soc.get("13-2020"), 60_000);
  assert.equal(soc.has("00-0000"), false);
  assert.equal(soc.has("55-1011"), false); // "**": not published
});

Deno.test("occupationEmployment shares a SOC code and combined rows among O*NET-SOC codes", () => {
  const rows = occupationEmployment(
    [
      "29-1141.00",
      "29-1141.01",
      "13-2022.00",
      "13-2023.00",
      "21-1013.00",
      "21-1014.00",
      "55-1011.00",
    ],
    parseOewsNational(CSV),
  );
  const byCode = new Map(rows.map((r) => [r.onetCode, r]));
  // Two O*NET-SOC codes of one SOC code: half each.
  assert.equal(byCode.get("29-1141.00")!.employment, 1_650_000);
  assert.equal(byCode.get("29-1141.01")!.basis, "detailed");
  // 13-2022 and 13-2023 are published only as 13-2020: half each; 21-1014 inside 21-1018.
  assert.deepEqual(byCode.get("13-2022.00"), {
    onetCode: "13-2022.00",
    socCode: "13-2022",
    employment: 30_000,
    basis: "aggregate",
  });
  // 21-1014 inside 21-1018, not the 21-1010 broad row (which sums 21-1013 too).
  assert.equal(byCode.get("21-1014.00")!.employment, 400_000);
  // Published nowhere: no row (the engine gives it no prior).
  assert.equal(byCode.has("55-1011.00"), false);
  assert.deepEqual(rows.map((r) => r.onetCode), [...rows.map((r) => r.onetCode)].sort());
});
