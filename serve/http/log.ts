/** Structured JSON logs: one object per line on stdout, never secrets or submitted text. */

/** Severity of a log line. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** Writes structured log lines. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** A logger that writes JSON lines at or above `level` through `write`. */
export function jsonLogger(
  level: LogLevel = "info",
  write: (line: string) => void = (line) => console.log(line),
): Logger {
  const emit = (at: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    write(JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields }));
  };
  return { debug: emit("debug"), info: emit("info"), warn: emit("warn"), error: emit("error") };
}

/** A logger that keeps its lines in memory, for tests. */
export function memoryLogger(): Logger & { lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = jsonLogger("debug", (line) => lines.push(JSON.parse(line)));
  return Object.assign(logger, { lines });
}
