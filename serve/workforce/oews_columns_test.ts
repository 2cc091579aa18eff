import assert from "node:assert/strict";
import { fromColumns, toColumns } from "./oews_columns.ts";
import type { OewsRow } from "./artifact.ts";

const row = (line: number, occ: string, figures: OewsRow["figures"]): OewsRow => ({
  sha256: "f".repeat(64),
  line,
  naics: "000000",
  naics_title: "Cross-industry",
  own_code: "1235",
  occ_code: occ,
  occ_title: `Title of ${occ}`,
  o_group: "detailed",
  annual_only: line === 3,
  hourly_only: line === 4,
  figures,
});

Deno.test("OEWS columns give back the rows, their order, figures, nulls and markers", () => {
  const rows = [
    row(2, "11-1011", {
      tot_emp: { value: 200_000, marker: null },
      a_mean: { value: null, marker: "#" },
    }),
    row(3, "11-1011", { tot_emp: { value: 0.5, marker: "~" } }),
    row(4, "29-1141", {
      h_mean: { value: null, marker: "*" },
      tot_emp: { value: null, marker: "**" },
    }),
    row(1, "13-2011", {}),
  ];
  const columns = toColumns("f".repeat(64), rows);
  // Each distinct text once.
  assert.equal(columns.strings.filter((s) => s === "Cross-industry").length, 1);
  const back = fromColumns(columns);
  assert.deepEqual([...back.keys()], ["11-1011", "29-1141", "13-2011"]);
  const plain = [...back.values()].flat().map((r) => ({ ...r, figures: r.figures }));
  for (const r of plain) {
    delete (r as Record<string, unknown>).columns;
    delete (r as Record<string, unknown>).at;
  }
  assert.deepEqual(plain, rows.map((r) => ({ ...r })));
  // Figures are built once and kept.
  const first = back.get("11-1011")![0];
  assert.equal(first.figures, first.figures);
});

Deno.test("OEWS columns refuse what they cannot hold", () => {
  assert.throws(
    () => toColumns("a".repeat(64), [row(1, "11-1011", {})]),
    /another file/,
  );
  const odd = row(1, "11-1011", { tot_emp: { value: 1, marker: "?" as "*" } });
  assert.throws(() => toColumns("f".repeat(64), [odd]), /unknown OEWS marker/);
});
