/** Loads a parsed release into typed staging tables (stg.<table>) with DuckDB's appender. */
import {
  DuckDBAppender,
  type DuckDBConnection,
  DuckDBScalarFunction,
  VARCHAR,
} from "@duckdb/node-api";
import type { ColumnKind } from "../sources/onet/files.ts";
import { ONET_FILES } from "../sources/onet/files.ts";
import type { Cell, OnetRelease } from "../sources/onet/read.ts";
import { normalizeTitle } from "../../serve/text/normalize.ts";

function sqlType(kind: ColumnKind): string {
  switch (kind) {
    case "int":
      return "INTEGER";
    case "num":
    case "opt_num":
      return "DOUBLE";
    case "flag":
    case "opt_flag":
      return "BOOLEAN";
    default:
      return "VARCHAR";
  }
}

function append(appender: DuckDBAppender, kind: ColumnKind, value: Cell): void {
  if (value === null) return appender.appendNull();
  switch (kind) {
    case "int":
      return appender.appendInteger(value as number);
    case "num":
    case "opt_num":
      return appender.appendDouble(value as number);
    case "flag":
    case "opt_flag":
      return appender.appendBoolean(value as boolean);
    default:
      return appender.appendVarchar(value as string);
  }
}

/** Registers normalize_title(VARCHAR), the shared normaliser, for the build SQL. */
export function registerNormalizer(connection: DuckDBConnection): void {
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: "normalize_title",
      returnType: VARCHAR,
      parameterTypes: [VARCHAR],
      mainFunction: (_info, input, output) => {
        const column = input.getColumnVector(0);
        for (let row = 0; row < input.rowCount; row++) {
          const value = column.getItem(row);
          output.setItem(row, value === null ? null : normalizeTitle(String(value)));
        }
        output.flush();
      },
    }),
  );
}

/**
 * Creates one staging table per O*NET file in the attached `stg` catalog and appends its
 * rows. A file absent from the release still gets its (empty) table so the SQL that reads
 * it does not need to know; the manifest records the absence.
 */
export async function stageRelease(
  connection: DuckDBConnection,
  release: OnetRelease,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const spec of ONET_FILES) {
    const columns = spec.columns.map((c) => `${c.name} ${sqlType(c.kind)}`).join(", ");
    await connection.run(`CREATE TABLE stg.${spec.table} (${columns}, line_no INTEGER)`);
    const parsed = release.files.get(spec.file);
    const appender = await connection.createAppender(spec.table, "main", "stg");
    const rows = parsed?.rows ?? [];
    rows.forEach((row, i) => {
      for (let c = 0; c < spec.columns.length; c++) append(appender, spec.columns[c].kind, row[c]);
      appender.appendInteger(i + 2);
      appender.endRow();
    });
    appender.closeSync();
    counts.set(spec.table, rows.length);
  }
  return counts;
}
