import assert from "node:assert/strict";
import { US_STATES, usStateByCode } from "./us_states.ts";

Deno.test("the US states table: 50 states, DC and Puerto Rico, codes and FIPS unique", () => {
  assert.equal(US_STATES.length, 52);
  assert.equal(new Set(US_STATES.map((s) => s.code)).size, 52);
  assert.equal(new Set(US_STATES.map((s) => s.fips)).size, 52);
  for (const s of US_STATES) {
    assert.match(s.code, /^[A-Z]{2}$/);
    assert.match(s.fips, /^\d{2}$/);
    assert.match(s.name, /^[A-Z][a-z]+(?: (?:of )?[A-Z][a-z]+)*$/, s.name);
  }
  assert.deepEqual(usStateByCode("NC"), { code: "NC", fips: "37", name: "North Carolina" });
  assert.equal(usStateByCode("DC")?.name, "District of Columbia");
  assert.equal(usStateByCode("nc"), undefined, "upper case codes only");
  const fips = US_STATES.map((s) => s.fips);
  assert.deepEqual(fips, [...fips].sort(), "in FIPS order");
});
