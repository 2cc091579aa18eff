/**
 * `occupation_employment`: OEWS national cross-industry employment for every O*NET-SOC code, the
 * occupation engine's size prior. Read in place from the path the build is given (the BLS file
 * is never copied into the project); without one the table is empty and the engine runs without
 * the prior.
 *
 * An O*NET-SOC code takes the employment of its SOC 6-digit code, shared equally among the
 * O*NET-SOC codes of that SOC code. A SOC code OEWS publishes only inside a combined row
 * (13-2022 inside 13-2020, 21-1014 inside 21-1018) takes an equal share of that row among the
 * taxonomy's SOC codes it covers (basis "aggregate"); codes published nowhere get no row.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { basename, join } from "node:path";
import { sha256File } from "../hash.ts";
import type { ManifestInput } from "../manifest.ts";
import { parseCsvText } from "../market/csv.ts";

/** The national cross-industry file of a path: the file itself, or the newest in a folder. */
export async function resolveOewsNational(path: string): Promise<string> {
  const info = await Deno.stat(path);
  if (info.isFile) return path;
  const names: string[] = [];
  for await (const entry of Deno.readDir(path)) {
    if (entry.isFile && /^national_M\d{4}_dl\.csv$/i.test(entry.name)) names.push(entry.name);
  }
  if (names.length === 0) throw new Error(`${path}: no national_M<year>_dl.csv file`);
  return join(path, names.sort().at(-1)!);
}

/** SOC code -> national employment, from the detailed and broad rows of an OEWS national file. */
export function parseOewsNational(text: string, file = "OEWS file"): Map<string, number> {
  const [first, ...rows] = parseCsvText(text);
  const header = (first ?? []).map((h) => h.trim().toUpperCase());
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`${file}: no ${name} column`);
    return i;
  };
  const [code, group, emp] = [col("OCC_CODE"), col("O_GROUP"), col("TOT_EMP")];
  const out = new Map<string, number>();
  for (const row of rows) {
    if (!["detailed", "broad"].includes(row[group])) continue;
    const n = Number(row[emp].replace(/,/g, ""));
    if (!/^\d{2}-\d{4}$/.test(row[code]) || !Number.isFinite(n) || n <= 0) continue;
    // A broad row repeats the sum of its detailed rows; keep the detailed one when both exist.
    if (row[group] === "broad" && out.has(row[code])) continue;
    out.set(row[code], n);
  }
  return out;
}

/** Employment of each O*NET-SOC code and how it was found. */
export function occupationEmployment(
  onetCodes: string[],
  soc: Map<string, number>,
): { onetCode: string; socCode: string; employment: number; basis: string }[] {
  const socs = [...new Set(onetCodes.map((c) => c.slice(0, 7)))].sort();
  const socEmployment = new Map<string, [number, string]>();
  // Combined rows: an OEWS code that is not a taxonomy SOC code covers the taxonomy's codes of
  // its broad group (first five characters) that have no row of their own.
  const uncovered = socs.filter((s) => !soc.has(s));
  const byBroad = new Map<string, string[]>();
  for (const s of uncovered) {
    const list = byBroad.get(s.slice(0, 6)) ?? [];
    list.push(s);
    byBroad.set(s.slice(0, 6), list);
  }
  const taxonomy = new Set(socs);
  for (const s of socs) if (soc.has(s)) socEmployment.set(s, [soc.get(s)!, "detailed"]);
  for (const [broad, members] of byBroad) {
    // The group's own combined rows (21-1018) when OEWS has them, else its broad row (13-2020),
    // which also sums the codes published on their own.
    let total = 0;
    let broadRow = 0;
    for (const [code, n] of soc) {
      if (code.slice(0, 6) !== broad || taxonomy.has(code)) continue;
      if (code.endsWith("0")) broadRow = n;
      else total += n;
    }
    if (total <= 0) total = broadRow;
    if (total <= 0) continue;
    for (const s of members) socEmployment.set(s, [total / members.length, "aggregate"]);
  }
  const perSoc = new Map<string, number>();
  for (const c of onetCodes) perSoc.set(c.slice(0, 7), (perSoc.get(c.slice(0, 7)) ?? 0) + 1);
  const out = [];
  for (const onetCode of [...onetCodes].sort()) {
    const socCode = onetCode.slice(0, 7);
    const found = socEmployment.get(socCode);
    if (!found) continue;
    out.push({
      onetCode,
      socCode,
      employment: Math.round(found[0] / perSoc.get(socCode)! * 100) / 100,
      basis: found[1],
    });
  }
  return out;
}

/** Builds occupation_employment from an OEWS national file (empty without one). */
export async function buildEmploymentTable(
  connection: DuckDBConnection,
  oewsFile: string | null,
): Promise<number> {
  await connection.run(
    `CREATE TABLE occupation_employment (onet_code VARCHAR, soc_code VARCHAR,
       employment DOUBLE, basis VARCHAR)`,
  );
  if (oewsFile === null) return 0;
  const soc = parseOewsNational(await Deno.readTextFile(oewsFile), oewsFile);
  const codes = (await connection.runAndReadAll("SELECT onet_code FROM occupations"))
    .getRowsJS().map((r) => String(r[0]));
  const rows = occupationEmployment(codes, soc);
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500);
    await connection.run(
      `INSERT INTO occupation_employment SELECT * FROM (VALUES ${
        batch.map((_, j) => `($${4 * j + 1}, $${4 * j + 2}, $${4 * j + 3}::DOUBLE, $${4 * j + 4})`)
          .join(", ")
      })`,
      batch.flatMap((r) => [r.onetCode, r.socCode, r.employment, r.basis]),
    );
  }
  return rows.length;
}

/** The manifest record of the OEWS input (optional). */
export async function employmentInput(path: string | null): Promise<ManifestInput> {
  if (path === null) return { file: "oews national", required: false, status: "absent" };
  const info = await Deno.stat(path);
  return {
    file: basename(path),
    required: false,
    status: "present",
    bytes: info.size,
    sha256: await sha256File(path),
  };
}
