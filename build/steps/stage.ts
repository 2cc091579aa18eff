/** Loads a parsed release into typed staging tables (stg.<table>) with DuckDB's appender. */
import type { DuckDBAppender, DuckDBConnection } from "@duckdb/node-api";
import { duckdb } from "../../serve/stores/duckdb.ts";
import { type ColumnKind, sqlType, STAGING_TABLES } from "../sources/onet/files.ts";
import type { Cell, OnetRelease } from "../sources/onet/read.ts";
import { normalizeTitle } from "../../serve/text/normalize.ts";

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
export async function registerNormalizer(connection: DuckDBConnection): Promise<void> {
  const { DuckDBScalarFunction, VARCHAR } = await duckdb();
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
 * Creates every staging table in the attached `stg` catalog and appends the rows of the
 * release files that feed it, each row mapped by column name from its file's layout. Columns
 * the layout lacks (Title in the lean style) stay NULL; a table no present file feeds stays
 * empty, so the SQL that reads it does not need to know; the manifest records the absence.
 * `line_no` is the row's line in its own file.
 */
export async function stageRelease(
  connection: DuckDBConnection,
  release: OnetRelease,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const staging of STAGING_TABLES) {
    const columns = staging.columns.map((c) => `${c.name} ${sqlType(c.kind)}`).join(", ");
    await connection.run(`CREATE TABLE stg.${staging.table} (${columns}, line_no INTEGER)`);
    const appender = await connection.createAppender(staging.table, "main", "stg");
    let count = 0;
    for (const parsed of release.files.values()) {
      if (!parsed || parsed.spec.table !== staging.table) continue;
      const at = staging.columns.map((c) =>
        parsed.layout.columns.findIndex((l) => l.name === c.name)
      );
      parsed.rows.forEach((row, i) => {
        staging.columns.forEach((c, s) => append(appender, c.kind, at[s] < 0 ? null : row[at[s]]));
        appender.appendInteger(i + 2);
        appender.endRow();
      });
      count += parsed.rows.length;
    }
    appender.closeSync();
    counts.set(staging.table, count);
  }
  return counts;
}
