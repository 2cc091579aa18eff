/** Unit tests of the O*NET file parser: typing, tolerated encodings and the rules it enforces. */
import assert from "node:assert/strict";
import { decodeUtf8, InputError, parseOnetFile, parseReadMe } from "./read.ts";
import { ONET_FILES, type OnetFileSpec } from "./files.ts";

function spec(file: string): OnetFileSpec {
  const found = ONET_FILES.find((s) => s.file === file);
  assert.ok(found, file);
  return found;
}

const SKILLS = spec("Skills.txt");
const TASKS = spec("Task Statements.txt");
const SKILLS_HEADER = SKILLS.columns.map((c) => c.header).join("\t");

/** One Skills.txt line with the given N, flags and optional cells. */
function skillLine(
  n: string,
  options: { suppress?: string; notRelevant?: string; se?: string; scale?: string } = {},
): string {
  const scale = options.scale ?? "LV";
  return [
    "15-1252.00",
    "Software Developers",
    "2.A.2.a",
    "Critical Thinking",
    scale,
    scale === "IM" ? "Importance" : "Level",
    "4.25",
    n,
    options.se ?? "0.2011",
    "4.0059",
    "4.7941",
    options.suppress ?? "N",
    options.notRelevant ?? "N",
    "08/2023",
    "Analyst",
  ].join("\t");
}

/** Runs fn and returns the InputError it throws. */
function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof InputError, `expected InputError, got ${error}`);
    return error;
  }
  assert.fail("no InputError thrown");
}

Deno.test("parseOnetFile types every column of a rating file", () => {
  const rows = parseOnetFile(SKILLS, `${SKILLS_HEADER}\n${skillLine("8")}\n`);
  assert.deepEqual(rows, [[
    "15-1252.00",
    "Software Developers",
    "2.A.2.a",
    "Critical Thinking",
    "LV",
    "Level",
    4.25,
    8,
    0.2011,
    4.0059,
    4.7941,
    false,
    false,
    "08/2023",
    "Analyst",
  ]]);
});

Deno.test("parseOnetFile: N printed as 28.0 and as 28 both parse to 28", () => {
  const rows = parseOnetFile(
    SKILLS,
    [SKILLS_HEADER, skillLine("28.0"), skillLine("28", { scale: "IM" })].join("\n"),
  );
  assert.equal(rows[0][7], 28);
  assert.equal(rows[1][7], 28);
  // whole-number columns accept a ".0" too, but not a fraction
  const taskHeader = TASKS.columns.map((c) => c.header).join("\t");
  const task = (id: string) =>
    ["11-1011.00", "Chief Executives", id, "Do things.", "Core", "95.0", "08/2023", "Incumbent"]
      .join("\t");
  assert.equal(parseOnetFile(TASKS, `${taskHeader}\n${task("8823.0")}`)[0][2], 8823);
  const error = inputError(() => parseOnetFile(TASKS, `${taskHeader}\n${task("8823.5")}`));
  assert.equal(error.line, 2);
  assert.match(error.rule, /"Task ID" must be a whole number \(found "8823\.5"\)/);
});

Deno.test("parseOnetFile: empty optional cells are null, Y/N are booleans", () => {
  const rows = parseOnetFile(
    SKILLS,
    [
      SKILLS_HEADER,
      skillLine("", { se: "", suppress: "Y", notRelevant: "" }),
      skillLine(" 8 ", { suppress: "N", notRelevant: "Y", scale: "IM" }),
    ].join("\n"),
  );
  assert.equal(rows[0][7], null); // N
  assert.equal(rows[0][8], null); // Standard Error
  assert.equal(rows[0][11], true); // Recommend Suppress
  assert.equal(rows[0][12], null); // Not Relevant left empty
  assert.equal(rows[1][7], 8); // surrounding spaces trimmed
  assert.equal(rows[1][11], false);
  assert.equal(rows[1][12], true);

  // a required cell may not be empty, a flag must be Y or N
  let error = inputError(() =>
    parseOnetFile(SKILLS, `${SKILLS_HEADER}\n${skillLine("8").replace("Analyst", "")}`)
  );
  assert.equal(error.line, 2);
  assert.match(error.rule, /"Domain Source" must not be empty/);
  error = inputError(() =>
    parseOnetFile(
      SKILLS,
      `${SKILLS_HEADER}\n${skillLine("8")}\n${skillLine("8", { suppress: "y" })}`,
    )
  );
  assert.equal(error.line, 3);
  assert.match(error.rule, /"Recommend Suppress" must be Y or N \(found "y"\)/);
  error = inputError(() => parseOnetFile(SKILLS, `${SKILLS_HEADER}\n${skillLine("eight")}`));
  assert.match(error.rule, /"N" must be a number \(found "eight"\)/);
  error = inputError(() =>
    parseOnetFile(SKILLS, `${SKILLS_HEADER}\n${skillLine("8", { scale: "XX" })}`)
  );
  assert.match(error.rule, /"Scale ID" must be one of IM, LV \(found "XX"\)/);
});

Deno.test("parseOnetFile tolerates CRLF line endings and a UTF-8 BOM", () => {
  const lf = parseOnetFile(SKILLS, `${SKILLS_HEADER}\n${skillLine("8")}\n${skillLine("9")}\n`);
  const crlf = parseOnetFile(
    SKILLS,
    `\uFEFF${SKILLS_HEADER}\r\n${skillLine("8")}\r\n${skillLine("9")}\r\n`,
  );
  assert.equal(lf.length, 2);
  assert.deepEqual(crlf, lf);
  assert.equal(crlf[1][14], "Analyst"); // no "\r" left on the last column
  // decoding bytes with a BOM then parsing gives the same rows
  const bytes = new TextEncoder().encode(`\uFEFF${SKILLS_HEADER}\r\n${skillLine("8")}\r\n`);
  assert.deepEqual(parseOnetFile(SKILLS, decodeUtf8("Skills.txt", bytes)), [lf[0]]);
});

Deno.test("decodeUtf8 rejects invalid UTF-8 and keeps valid text", () => {
  assert.equal(
    decodeUtf8("Occupation Data.txt", new TextEncoder().encode("Café – ok")),
    "Café – ok",
  );
  for (const bad of [[0x43, 0x61, 0x66, 0xe9], [0xff, 0xfe, 0x41], [0xc3]]) {
    const error = inputError(() => decodeUtf8("Occupation Data.txt", new Uint8Array(bad)));
    assert.equal(error.file, "Occupation Data.txt");
    assert.equal(error.line, null);
    assert.match(error.rule, /not valid UTF-8/);
    assert.equal(error.message, "Occupation Data.txt: file is not valid UTF-8 text");
  }
});

Deno.test("parseOnetFile: header, field count, blank lines and empty files", () => {
  let error = inputError(() => parseOnetFile(SKILLS, ""));
  assert.equal(error.line, null);
  assert.match(error.rule, /file is empty/);

  // header only: no rows, no error
  assert.deepEqual(parseOnetFile(SKILLS, `${SKILLS_HEADER}\n`), []);
  // header cells are compared trimmed
  assert.equal(parseOnetFile(SKILLS, `${SKILLS_HEADER} \r\n${skillLine("8")}`).length, 1);

  error = inputError(() =>
    parseOnetFile(SKILLS, SKILLS_HEADER.replace("Element ID", "Element Id") + "\n")
  );
  assert.equal(error.file, "Skills.txt");
  assert.equal(error.line, 1);
  assert.match(error.rule, /header must be "O\*NET-SOC Code \| Title \| Element ID/);
  assert.match(error.rule, /found "O\*NET-SOC Code \| Title \| Element Id/);

  error = inputError(() => parseOnetFile(SKILLS, `${SKILLS_HEADER}\n${skillLine("8")}\t\n`));
  assert.equal(error.line, 2);
  assert.match(error.rule, /row must have 15 tab-separated fields \(found 16\)/);

  error = inputError(() =>
    parseOnetFile(SKILLS, `${SKILLS_HEADER}\n${skillLine("8")}\n\n${skillLine("9")}\n`)
  );
  assert.equal(error.line, 3);
  assert.match(error.rule, /blank line inside data/);

  error = inputError(() =>
    parseOnetFile(SKILLS, `${SKILLS_HEADER}\n${skillLine("8").replace("15-1252.00", "15-1252")}`)
  );
  assert.equal(error.line, 2);
  assert.match(error.rule, /must be an O\*NET-SOC code like 11-1011\.00 \(found "15-1252"\)/);

  error = inputError(() =>
    parseOnetFile(SKILLS, `${SKILLS_HEADER}\n${skillLine("8").replace("08/2023", "13/2023")}`)
  );
  assert.match(error.rule, /"Date" must be a date like 08\/2024 \(found "13\/2023"\)/);
});

Deno.test("parseReadMe reads version and label from the first lines", () => {
  assert.deepEqual(
    parseReadMe("O*NET 29.3 Database\nMay 2025 Release\n----------------\n\nFor information"),
    { version: "29.3", label: "May 2025 Release" },
  );
  assert.deepEqual(
    parseReadMe("\uFEFF\r\nO*NET 30.0 Database\r\n---------\r\nText\r\n"),
    { version: "30.0", label: null },
  );
  for (const bad of ["", "O*NET Database\n", "Read me first\nO*NET 29.3 Database\n"]) {
    const error = inputError(() => parseReadMe(bad));
    assert.equal(error.file, "Read Me.txt");
    assert.equal(error.line, 1);
    assert.match(error.rule, /first line must name the release/);
  }
});
