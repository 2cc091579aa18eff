/**
 * Turns zod validation failures into 422 problems with an `errors` array of
 * {loc, msg, type}. Messages come from the rule, never from the submitted value.
 */
import type { Context } from "hono";
import type { ZodError } from "zod";
import { ApiError, type ValidationIssue } from "./errors.ts";

const LOCATION: Record<string, string> = {
  json: "body",
  form: "body",
  query: "query",
  param: "path",
  header: "header",
  cookie: "cookie",
};

/** Converts zod issues into the public validation issue list. */
export function validationIssues(target: string, error: ZodError): ValidationIssue[] {
  return error.issues.flatMap((issue): ValidationIssue[] => {
    const base = [
      LOCATION[target] ?? target,
      ...issue.path.map((p) => typeof p === "symbol" ? String(p) : p),
    ];
    if (issue.code === "unrecognized_keys") {
      // One issue per unknown property, located at it; a name that is not a plain identifier
      // is not repeated back.
      return (issue as { keys: string[] }).keys.map((key) => ({
        loc: [...base, /^[A-Za-z0-9_]{1,64}$/.test(key) ? key : "(unknown property)"],
        msg: "Unknown property: this object allows only its documented properties",
        type: "unrecognized_keys",
      }));
    }
    const named = (issue as { params?: { type?: unknown } }).params?.type;
    const type = typeof named === "string"
      ? named // a custom rule that names itself, e.g. password_policy
      : issue.code === "too_big" || issue.code === "too_small"
      ? `${issue.code}.${(issue as { origin?: string }).origin ?? "value"}`
      : issue.code;
    return [{ loc: base, msg: issue.message, type }];
  });
}

/** The default hook of every OpenAPI route: a failed validation becomes a 422 problem. */
export function validationHook(
  result: { success: boolean; error?: ZodError; target: string },
  _c: Context,
): void {
  if (result.success || !result.error) return;
  const errors = validationIssues(result.target, result.error);
  throw new ApiError(
    "validation_failed",
    `${errors.length} field(s) failed validation`,
    { errors },
  );
}
