import assert from "node:assert/strict";
import { abbreviates, twoForms } from "./text.ts";

const words = (text: string) => text.split(" ");

Deno.test("abbreviates: contractions, acronyms of word prefixes, joining words", () => {
  const yes: [string, string][] = [
    ["pa tech", "public address technician"],
    ["sped admin", "special education administrator"],
    ["hs sped teacher", "high school special education teacher"],
    ["dept store gm", "department store general manager"],
    ["rn", "registered nurse"],
    ["cadd instructor", "computer aided drafting and design instructor"],
    ["m and a banker", "mergers and acquisitions banker"],
    ["deli clerk", "delicatessen clerk"],
  ];
  for (const [short, long] of yes) assert.ok(abbreviates(words(short), words(long)), short);
  const no: [string, string][] = [
    ["rn", "nurse"], // the acronym must be made of the words' first letters
    ["farm worker", "vegetables"],
    ["cook", "cook"], // the same words: nothing is shortened
    ["pa", "public address technician"], // every word of the long form is used
    ["tech", "chemist"],
  ];
  for (const [short, long] of no) assert.ok(!abbreviates(words(short), words(long)), short);
});

Deno.test("twoForms: a title and its written-out or shortened form, else null", () => {
  assert.deepEqual(twoForms("SPED Admin (Special Education Administrator)"), [
    "SPED Admin",
    "Special Education Administrator",
  ]);
  assert.deepEqual(twoForms("Public Address Technician (PA Tech)"), [
    "Public Address Technician",
    "PA Tech",
  ]);
  assert.equal(twoForms("Farm Worker (Vegetables)"), null);
  assert.equal(twoForms("Nurse (RN)"), null);
  assert.equal(twoForms("Driver (Class A, 2 years)"), null);
  assert.equal(twoForms("Tactical/Mobile (Tacmobile) Ashore Operator"), null);
  assert.equal(twoForms("Cook"), null);
});
