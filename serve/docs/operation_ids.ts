/**
 * Stable, readable operation ids for every operation of the OpenAPI document that does not name
 * its own: the method and the path, e.g. GET /api/v1/workforce/occupations/{soc_code} ->
 * `getWorkforceOccupation`, POST /api/v1/grounding/sources/{source_id}/ingest-file ->
 * `postGroundingSourceIngestFile`. Generated clients and linters key on them.
 */

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** The id of one operation derived from its method and path. */
export function deriveOperationId(method: string, path: string): string {
  const segments = path.replace(/^\/api\/v\d+(?=\/|$)/, "").split("/").filter((s) => s !== "");
  const words: string[] = [];
  segments.forEach((segment, i) => {
    if (segment.startsWith("{")) return; // a parameter names one item of the segment before it
    const parts = segment.split(/[^A-Za-z0-9]+/).filter((part) => part !== "");
    // `sources/{source_id}` is one source: its last word goes singular (`feedback` -> `feedbackItem`).
    if (segments[i + 1]?.startsWith("{") && parts.length > 0) {
      const word = parts.pop()!;
      parts.push(singular(word) === word ? `${word}Item` : singular(word));
    }
    words.push(...parts);
  });
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

/** `sources` -> `source`, `capabilities` -> `capability`; others unchanged. */
function singular(word: string): string {
  if (/ies$/.test(word)) return word.slice(0, -3) + "y";
  if (/[^su]s$/.test(word)) return word.slice(0, -1);
  return word;
}

type Operation = { operationId?: string };
/** The `paths` of an OpenAPI document: path items keyed by path. */
type Paths = Record<string, object | undefined>;

/**
 * Gives every operation of `paths` without an operationId its derived one, in place; throws
 * when two operations would share an id, so a new route cannot silently collide.
 */
export function assignOperationIds(paths: Paths): void {
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = (item as Partial<Record<string, Operation>> | undefined)?.[method];
      if (!operation) continue;
      operation.operationId ??= deriveOperationId(method, path);
      const where = `${method.toUpperCase()} ${path}`;
      const other = seen.get(operation.operationId);
      if (other) {
        throw new Error(`operationId ${operation.operationId} of ${where} is taken by ${other}`);
      }
      seen.set(operation.operationId, where);
    }
  }
}
