/**
 * Remote and hybrid signals, explicit ones first. The first rule that gives an answer decides
 * and is recorded with the posting:
 * 1. `job_location_type`: schema.org `jobLocationType: TELECOMMUTE` -> remote.
 * 2. `remote_column`: a feed's declared remote column (true -> remote, "hybrid" -> hybrid,
 *    false -> on site; an empty cell says nothing).
 * 3. `title_phrase`: "remote", "work from home", "WFH", "telecommute" or "hybrid" in the title,
 *    unless negated.
 * 4. `description_phrase`: a work-arrangement phrase in the description ("fully remote",
 *    "remote-friendly", "remote OK", "or remote", "work from home", "remote (US)", "hybrid
 *    role", "3 days a week in the office"), unless negated ("no remote", "not remote",
 *    "remote work is not available"). Uses of the word that are not about where the job is
 *    done ("remote sensing", "remote monitoring") do not match the phrases.
 * A posting is remote or hybrid or neither; "remote or hybrid" counts as remote.
 */

/** Which rule decided a posting's remote status. */
export type RemoteRule =
  | "job_location_type"
  | "remote_column"
  | "title_phrase"
  | "description_phrase";

/** A posting's work arrangement and the rule that found it. */
export interface RemoteSignal {
  remote: boolean;
  hybrid: boolean;
  rule: RemoteRule | null;
}

/** After "remote": the word names a technique, not where the work is done ("remote sensing"). */
const NOT_ARRANGEMENT = String.raw`(?![\s-]+(?:sensing|monitoring)\b)`;

const TITLE_REMOTE = new RegExp(
  String
    .raw`\b(?:remote\b${NOT_ARRANGEMENT}|work from home|wfh|telecommute|telecommuting|home[- ]based)\b`,
  "gi",
);
const TITLE_HYBRID = /\bhybrid\b/gi;

const DESCRIPTION_REMOTE = new RegExp(
  [
    String
      .raw`\b(?:fully|100%|completely|entirely|full[- ]time|partially|mostly|primarily)\s+remote\b`,
    String
      .raw`\bremote[- ]?(?:first|friendly|ok|okay|only|eligible|possible|available|allowed|option|options|position|positions|role|roles|job|jobs|work|working|opportunity|opportunities|team|company|employee|employees|candidates?|worldwide|anywhere)\b`,
    String.raw`\b(?:work|working)\s+(?:from\s+home|remotely)\b`,
    String.raw`\bwfh\b`,
    String.raw`\btelecommut\w*`,
    String.raw`\bwork\s+from\s+anywhere\b`,
    String.raw`\bremote\s*[(\[]`,
    String.raw`(?:\bor|\band|[/|,])\s*remote\b${NOT_ARRANGEMENT}`,
    String.raw`\bremote\s*(?:[/|]|or\b|$)`,
    String.raw`^\s*remote\b${NOT_ARRANGEMENT}`,
  ].join("|"),
  "gim",
);

const DESCRIPTION_HYBRID = new RegExp(
  [
    String
      .raw`\bhybrid\s+(?:role|position|work|working|schedule|model|environment|remote|setup|arrangement|opportunity|office|policy|team)\b`,
    String.raw`\bhybrid\s*[(\[|,]`,
    String.raw`\b(?:is|are|be)\s+(?:fully\s+)?hybrid\b`,
    String.raw`[(\[|]\s*hybrid\b`,
    String
      .raw`\b(?:\d|one|two|three|four)\s+days?\s+(?:a|per|each)\s+week\s+(?:in|at)\s+(?:the\s+|our\s+)?(?:office|site)`,
  ].join("|"),
  "gim",
);

const NEGATED_BEFORE =
  /\b(?:no|not|non|never|without|cannot|can't|isn't|unable)\b[\s-]*(?:\w+[\s-]+){0,2}$/i;
const NEGATED_AFTER =
  /^[\w\s-]{0,25}?\b(?:not|no longer)\s+(?:available|possible|offered|an option|allowed|considered|supported)/i;

/** The first match of a phrase pattern that is not negated, or null. */
function firstAffirmed(pattern: RegExp, text: string): RegExpExecArray | null {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const before = text.slice(Math.max(0, m.index - 30), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 60);
    if (!NEGATED_BEFORE.test(before) && !NEGATED_AFTER.test(after)) return m;
    if (m[0].length === 0) pattern.lastIndex++;
  }
  return null;
}

/** Decides remote/hybrid from the explicit signals, then the title, then the description. */
export function detectRemote(
  telecommute: boolean,
  remoteColumn: boolean | "hybrid" | null,
  title: string,
  description: string,
): RemoteSignal {
  if (telecommute) return { remote: true, hybrid: false, rule: "job_location_type" };
  if (remoteColumn !== null) {
    return {
      remote: remoteColumn === true,
      hybrid: remoteColumn === "hybrid",
      rule: "remote_column",
    };
  }
  if (firstAffirmed(TITLE_REMOTE, title)) {
    return { remote: true, hybrid: false, rule: "title_phrase" };
  }
  if (firstAffirmed(TITLE_HYBRID, title)) {
    return { remote: false, hybrid: true, rule: "title_phrase" };
  }
  if (description !== "") {
    if (firstAffirmed(DESCRIPTION_REMOTE, description)) {
      return { remote: true, hybrid: false, rule: "description_phrase" };
    }
    if (firstAffirmed(DESCRIPTION_HYBRID, description)) {
      return { remote: false, hybrid: true, rule: "description_phrase" };
    }
  }
  return { remote: false, hybrid: false, rule: null };
}
