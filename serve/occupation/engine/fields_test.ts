import assert from "node:assert/strict";
import { medicalSpecialty, practitionerForms } from "./fields.ts";

Deno.test("a physician's or trainee's title gives its specialty; other titles give none", () => {
  assert.equal(medicalSpecialty("resident physician", "psychiatry"), "psychiatry");
  assert.equal(medicalSpecialty("cardiology fellow", ""), "cardiology");
  assert.equal(
    medicalSpecialty("resident physician", "pgy1 internal medicine"),
    "internal medicine",
  );
  assert.equal(
    medicalSpecialty("attending physician", "md do emergency medicine"),
    "emergency medicine",
  );
  // Every other word counts: the index's title check is what refuses "assistant physician".
  assert.equal(medicalSpecialty("resident assistant", ""), "assistant");
  // No medical role word, or nothing beside it.
  assert.equal(medicalSpecialty("psychiatry technician", ""), null);
  assert.equal(medicalSpecialty("resident physician", ""), null);
  assert.equal(medicalSpecialty("clinical fellow", "pgy-2"), null);
});

Deno.test("a field word gives its practitioner's forms; other words none", () => {
  assert.deepEqual(practitionerForms("biology"), ["biologist"]);
  assert.deepEqual(
    practitionerForms("physics"),
    ["physicist", "physician", "physist", "phys"].filter((f) => f.length > 3),
  );
  assert.ok(practitionerForms("statistic").includes("statistician"));
  assert.ok(practitionerForms("economic").includes("economist"));
  assert.ok(practitionerForms("linguistic").includes("linguist"));
  assert.deepEqual(practitionerForms("chemistry"), ["chemist"]);
  assert.deepEqual(practitionerForms("science"), ["scientist"]);
  assert.deepEqual(practitionerForms("psychiatry"), ["psychiatrist"]);
  assert.deepEqual(practitionerForms("astronomy"), ["astronomist", "astronomer"]);
  assert.deepEqual(practitionerForms("history"), ["historian"]);
  assert.deepEqual(practitionerForms("geography"), ["geographer"]);
  assert.deepEqual(practitionerForms("nurse"), []);
  assert.deepEqual(practitionerForms("ology"), []);
});
