/**
 * Reads an O*NET text release from a folder: finds the release family its Read Me names,
 * recognises each declared file's header style, parses and types each row, and checks codes
 * across files. Nothing is written here; a bad input throws an InputError naming the file,
 * the line and the rule.
 */
import { join } from "node:path";
import {
  type ColumnSpec,
  EMPTY_MARKERS,
  familyOf,
  type FileLayout,
  type HeaderStyle,
  type OnetFileSpec,
  READ_ME_FILE,
  RELEASE_FAMILIES,
  type ReleaseFamily,
} from "./files.ts";
import { sha256Hex } from "../../hash.ts";
import type { ManifestInput } from "../../manifest.ts";

/** A typed cell of a staged row. */
export type Cell = string | number | boolean | null;

/** A build input that breaks a rule; the message names file, line and rule. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | null,
    readonly rule: string,
  ) {
    super(`${file}${line === null ? "" : ` line ${line}`}: ${rule}`);
    this.name = "InputError";
  }
}

/** A parsed file: its spec, the layout its header matched and its typed rows in file order. */
export interface ParsedFile {
  spec: OnetFileSpec;
  layout: FileLayout;
  rows: Cell[][];
}

/** The header style of a whole release folder: one style, or a mix of files in each. */
export type ReleaseStyle = HeaderStyle | "mixed";

/** A whole release: version, family, parsed files, header style and manifest input records. */
export interface OnetRelease {
  version: string;
  label: string | null;
  family: ReleaseFamily;
  files: Map<string, ParsedFile | null>;
  headerStyle: ReleaseStyle;
  inputs: ManifestInput[];
}

const CODE = /^\d{2}-\d{4}\.\d{2}$/;
const ELEMENT_ID = /^\d+(\.[A-Za-z0-9]+)*$/;
const COMMODITY = /^\d{8}$/;
const MONTH = /^(0[1-9]|1[0-2])\/\d{4}$/;
const INT = /^-?\d+(\.0+)?$/;
const NUM = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const MAX_FIELD = 20_000;

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Short, printable excerpt of a bad value for an error message. */
function shown(value: string): string {
  const cut = value.length > 40 ? value.slice(0, 40) + "…" : value;
  return JSON.stringify(cut);
}

/** Types one cell, or returns the rule it breaks; `empty` are the texts that mean no value. */
function typeCell(
  column: ColumnSpec,
  raw: string,
  empty: readonly string[],
): Cell | { rule: string } {
  const value = raw.trim();
  const where = `column "${column.header}"`;
  if (value.length > MAX_FIELD) return { rule: `${where} is longer than ${MAX_FIELD} characters` };
  if (empty.includes(value)) {
    if (column.kind.startsWith("opt_")) return null;
    return { rule: `${where} must not be empty` };
  }
  if (column.oneOf && !column.oneOf.includes(value)) {
    return { rule: `${where} must be one of ${column.oneOf.join(", ")} (found ${shown(value)})` };
  }
  switch (column.kind) {
    case "code":
      return CODE.test(value)
        ? value
        : { rule: `${where} must be an O*NET-SOC code like 11-1011.00 (found ${shown(value)})` };
    case "element_id":
      return ELEMENT_ID.test(value)
        ? value
        : { rule: `${where} must be an element id like 2.A.1.a (found ${shown(value)})` };
    case "commodity":
      return COMMODITY.test(value)
        ? value
        : { rule: `${where} must be an 8-digit commodity code (found ${shown(value)})` };
    case "month":
      return MONTH.test(value)
        ? value
        : { rule: `${where} must be a date like 08/2024 (found ${shown(value)})` };
    case "int":
      return INT.test(value)
        ? Number.parseInt(value, 10)
        : { rule: `${where} must be a whole number (found ${shown(value)})` };
    case "num":
    case "opt_num":
      return NUM.test(value)
        ? Number.parseFloat(value)
        : { rule: `${where} must be a number (found ${shown(value)})` };
    case "flag":
    case "opt_flag":
      return value === "Y"
        ? true
        : value === "N"
        ? false
        : { rule: `${where} must be Y or N (found ${shown(value)})` };
    case "text":
    case "opt_text":
      return value;
  }
}

/** Splits file text into lines without the final empty line; strips a BOM and CRs. */
function splitLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split("\n").map((line) => line.endsWith("\r") ? line.slice(0, -1) : line);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Decodes UTF-8 strictly; a file in another encoding fails with a clear rule. */
export function decodeUtf8(file: string, bytes: Uint8Array): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new InputError(file, null, "file is not valid UTF-8 text");
  }
}

/** The layout whose header is exactly `header` (cells trimmed); throws naming every layout. */
function matchLayout(spec: OnetFileSpec, header: string[]): FileLayout {
  const found = spec.layouts.find((l) =>
    l.columns.map((c) => c.header).join("\t") === header.join("\t")
  );
  if (found) return found;
  const wanted = spec.layouts.map((l) =>
    `"${l.columns.map((c) => c.header).join(" | ")}"` +
    (spec.layouts.length > 1 ? ` (${l.style})` : "")
  );
  throw new InputError(
    spec.file,
    1,
    `header must be ${wanted.join(" or ")} (found "${header.join(" | ").slice(0, 300)}")`,
  );
}

/** Parses one tab-separated O*NET file into typed rows of its layout; throws on a broken rule. */
export function parseOnetFile(spec: OnetFileSpec, text: string): Cell[][] {
  return parseOnetLayout(spec, text).rows;
}

/** Parses one O*NET file: the layout its header matched and its typed rows in that layout. */
export function parseOnetLayout(
  spec: OnetFileSpec,
  text: string,
): { layout: FileLayout; rows: Cell[][] } {
  const lines = splitLines(text);
  if (lines.length === 0) throw new InputError(spec.file, null, "file is empty");
  const header = lines[0].split("\t").map((h) => h.trim());
  const layout = matchLayout(spec, header);
  const columns = layout.columns;
  const empty = EMPTY_MARKERS[layout.style];
  const rows: Cell[][] = [];
  for (let i = 1; i < lines.length; i++) {
    const lineNo = i + 1;
    if (lines[i].trim() === "") throw new InputError(spec.file, lineNo, "blank line inside data");
    const fields = lines[i].split("\t");
    if (fields.length !== columns.length) {
      throw new InputError(
        spec.file,
        lineNo,
        `row must have ${columns.length} tab-separated fields (found ${fields.length})`,
      );
    }
    const row: Cell[] = new Array(fields.length);
    for (let c = 0; c < fields.length; c++) {
      const typed = typeCell(columns[c], fields[c], empty);
      if (typed !== null && typeof typed === "object") {
        throw new InputError(spec.file, lineNo, typed.rule);
      }
      row[c] = typed;
    }
    rows.push(row);
  }
  return { layout, rows };
}

/** Reads the release version ("29.3") and label from the release's own Read Me. */
export function parseReadMe(text: string): { version: string; label: string | null } {
  const lines = splitLines(text).map((l) => l.trim()).filter((l) => l !== "");
  const match = lines[0]?.match(/^O\*NET\s+(\d+\.\d+)\s+Database\b/);
  if (!match) {
    throw new InputError(
      READ_ME_FILE,
      1,
      'first line must name the release, like "O*NET 29.3 Database"',
    );
  }
  const label = lines[1] && !/^-+$/.test(lines[1]) ? lines[1] : null;
  return { version: match[1], label };
}

async function readIfPresent(path: string): Promise<Uint8Array | null> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Checks that every code a file mentions exists in Occupation Data with the same title. */
function checkCodes(files: Map<string, ParsedFile | null>): void {
  const occupations = files.get("Occupation Data.txt");
  if (!occupations) return;
  const titles = new Map<string, string>();
  occupations.rows.forEach((row, i) => {
    const code = row[0] as string;
    if (titles.has(code)) {
      throw new InputError("Occupation Data.txt", i + 2, `duplicate O*NET-SOC code ${code}`);
    }
    titles.set(code, row[1] as string);
  });
  for (const parsed of files.values()) {
    if (!parsed || parsed.spec.file === "Occupation Data.txt") continue;
    const columns = parsed.layout.columns;
    // Each code column is paired with the title column that names it (Title, Related Title),
    // when the file's style has one.
    const pairs = columns.flatMap((c, index) => {
      if (c.kind !== "code") return [];
      const titleName = c.name === "onet_code" ? "title" : c.name.replace(/_code$/, "_title");
      const titleIndex = columns.findIndex((t) => t.name === titleName);
      return [{ c, index, titleIndex }];
    });
    parsed.rows.forEach((row, i) => {
      for (const { c, index, titleIndex } of pairs) {
        const value = row[index] as string;
        const expected = titles.get(value);
        if (expected === undefined) {
          throw new InputError(
            parsed.spec.file,
            i + 2,
            `column "${c.header}" names ${value}, which is not in Occupation Data.txt`,
          );
        }
        if (titleIndex >= 0 && row[titleIndex] !== expected) {
          throw new InputError(
            parsed.spec.file,
            i + 2,
            `column "${columns[titleIndex].header}" must be the title of ${value} ` +
              "in Occupation Data.txt",
          );
        }
      }
    });
  }
}

/** The family of a release version, or an InputError on the Read Me naming the known ones. */
function familyFor(version: string): ReleaseFamily {
  const family = familyOf(version);
  if (family) return family;
  const known = RELEASE_FAMILIES.map((f) => f.id).join(", ");
  throw new InputError(
    READ_ME_FILE,
    1,
    `O*NET ${version} has no declared file set (declared: ${known}); ` +
      "add its family to build/sources/onet/files.ts",
  );
}

/** One style when every file that has one agrees, else "mixed"; "lean" with none at all. */
function releaseStyle(files: Iterable<ParsedFile | null>): ReleaseStyle {
  const styles = new Set<HeaderStyle>();
  for (const parsed of files) {
    if (parsed && parsed.layout.style !== "common") styles.add(parsed.layout.style);
  }
  if (styles.size > 1) return "mixed";
  return [...styles][0] ?? "lean";
}

/** Reads, validates and types a whole release folder. */
export async function readOnetRelease(
  dir: string,
  onFile: (file: string) => void = () => {},
): Promise<OnetRelease> {
  const readMeBytes = await readIfPresent(join(dir, READ_ME_FILE));
  if (!readMeBytes) throw new InputError(READ_ME_FILE, null, "required file is missing");
  const { version, label } = parseReadMe(decodeUtf8(READ_ME_FILE, readMeBytes));
  const family = familyFor(version);
  const inputs: ManifestInput[] = [{
    file: READ_ME_FILE,
    required: true,
    status: "present",
    bytes: readMeBytes.byteLength,
    sha256: await sha256Hex(readMeBytes),
  }];
  const files = new Map<string, ParsedFile | null>();
  for (const spec of family.files) {
    onFile(spec.file);
    const bytes = await readIfPresent(join(dir, spec.file));
    if (!bytes) {
      if (spec.required) throw new InputError(spec.file, null, "required file is missing");
      inputs.push({ file: spec.file, required: false, status: "absent" });
      files.set(spec.file, null);
      continue;
    }
    const { layout, rows } = parseOnetLayout(spec, decodeUtf8(spec.file, bytes));
    files.set(spec.file, { spec, layout, rows });
    inputs.push({
      file: spec.file,
      required: spec.required,
      status: "present",
      bytes: bytes.byteLength,
      sha256: await sha256Hex(bytes),
      rows: rows.length,
      header_style: layout.style,
    });
  }
  checkCodes(files);
  return { version, label, family, files, headerStyle: releaseStyle(files.values()), inputs };
}
