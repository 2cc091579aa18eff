import assert from "node:assert/strict";
import {
  blindRoundUrl,
  employerExamples,
  READ_BLIND_ROUNDS,
  readEmployerTitles,
  UNREAD_BLIND_ROUNDS,
} from "./devset.ts";
import { normalizeTitle } from "../../text/normalize.ts";
import { parseCsvText } from "../../../build/market/csv.ts";

Deno.test("every blind round is either read (employer-style dev data) or unread (never fitted)", async () => {
  const dir = new URL("../../../fixtures/occupation-dev/", import.meta.url);
  const rounds = [...Deno.readDirSync(dir)]
    .map((e) => e.name.match(/^blind_(.+)_titles\.csv$/)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort();
  const listed = [...READ_BLIND_ROUNDS, ...UNREAD_BLIND_ROUNDS].sort();
  assert.deepEqual(rounds, listed);
  assert.equal(new Set(listed).size, listed.length, "a round is in one list only");
  // No title of an unread round is among the titles the build fits on.
  const fitted = new Set((await readEmployerTitles()).map((r) => normalizeTitle(r.title)));
  for (const name of UNREAD_BLIND_ROUNDS) {
    const [header, ...rows] = parseCsvText(await Deno.readTextFile(blindRoundUrl(name)));
    const at = header.indexOf("title");
    for (const row of rows.filter((r) => r[at])) {
      assert.ok(!fitted.has(normalizeTitle(row[at])), `${name}: ${row[at]}`);
    }
  }
});

Deno.test("readEmployerTitles: the employer fixture and the read blind rounds, a style each", async () => {
  const rows = await readEmployerTitles();
  const styles = new Map<string, number>();
  for (const r of rows) styles.set(r.style, (styles.get(r.style) ?? 0) + 1);
  assert.deepEqual([...styles.keys()].sort(), ["catalog", "general", "seasonal", "visa"]);
  for (const r of rows) assert.match(r.soc, /^\d{2}-\d{4}$/, r.title);
  // Each row accepts every O*NET-SOC code of its SOC code; the halves split the rows.
  const codes = ["45-2092.00", "15-1252.00", "15-1299.08", "15-1299.09"];
  const sample = rows.filter((r) => r.soc === "45-2092" || r.soc === "15-1299");
  const both = employerExamples(sample, codes);
  assert.equal(both.length, sample.length);
  const forAll = both.find((e) => e.accept.includes("15-1299.08"));
  assert.deepEqual(forAll?.accept, ["15-1299.08", "15-1299.09"]);
  const halves = employerExamples(sample, codes, 0).length +
    employerExamples(sample, codes, 1).length;
  assert.equal(halves, sample.length);
});
