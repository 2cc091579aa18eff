/**
 * Titles that name a field of study or medicine instead of the practitioner: "Postdoctoral
 * Fellow - Physics" is a physicist, "Resident Physician - Psychiatry" a psychiatrist, "Cardiology
 * Fellow" a cardiologist. O*NET writes the practitioner ("Physicist", "Psychiatry Physician"), so
 * the field word alone matches other occupations' titles ("Physics Instructor", "Clinical Fellow").
 * These functions are pure; the index decides whether a reading names one of its titles.
 */

import { indexTerms, tokenize } from "../../text/normalize.ts";

/** A physician in training or in practice: the specialty decides the occupation. */
const MEDICAL_ROLES = new Set([
  "resident",
  "residency",
  "fellow",
  "fellowship",
  "physician",
  "doctor",
]);

/** A physician in training: a resident or a fellow. */
export const MEDICAL_TRAINEE = /\b(?:resident|residency|fellow|fellowship)\b/;

/** Any of MEDICAL_ROLES, for one scan of a title before tokenising it. */
const ANY_MEDICAL_ROLE = /\b(?:resident|residency|fellow|fellowship|physician|doctor)\b/;

/** Words around a medical role that say nothing of the specialty ("Attending", "PGY-2", "MD/DO"). */
const MEDICAL_FILLER = new Set([
  "attending",
  "staff",
  "clinical",
  "medical",
  "md",
  "do",
  "house",
  "trainee",
  "program",
  "year",
]);

/**
 * The specialty of a physician's or trainee's title, as the words to put before "physician"
 * ("Resident Physician - PGY1 Internal Medicine": "internal medicine"; "Cardiology Fellow":
 * "cardiology"), or null when the title has no medical role word or no other word. `text` is the
 * cleaned title and `rest` its dropped qualifier; every word that is neither a medical role nor
 * filler counts as the specialty, so "Resident Assistant" gives "assistant" and the index's title
 * check ("assistant physician" is no title) leaves it alone.
 */
export function medicalSpecialty(text: string, rest: string): string | null {
  // Most titles name no medical role: one scan before any tokenising.
  if (!ANY_MEDICAL_ROLE.test(text) && !ANY_MEDICAL_ROLE.test(rest)) return null;
  const words = tokenize(`${text} ${rest}`).filter((w) => !/^(?:pgy\d*|\d+)$/.test(w));
  if (!words.some((w) => MEDICAL_ROLES.has(w))) return null;
  const specialty = words.filter((w) => !MEDICAL_ROLES.has(w) && !MEDICAL_FILLER.has(w));
  if (specialty.length === 0 || specialty.length > 4) return null;
  return indexTerms(specialty.join(" ")).join(" ") || null;
}

/**
 * Field endings and the practitioner endings they take, on index terms (plurals are folded:
 * "physics" stays, "genetics" is "genetic"). "ics" comes before "ic".
 */
const PRACTITIONER_ENDINGS: [string, string[]][] = [
  ["ology", ["ologist"]],
  ["iatry", ["iatrist"]],
  ["istry", ["ist"]],
  ["ience", ["ientist"]],
  ["graphy", ["grapher"]],
  ["gery", ["geon"]],
  ["sophy", ["sopher"]],
  ["omy", ["omist", "omer"]],
  ["any", ["anist"]],
  ["ory", ["orian"]],
  ["ics", ["icist", "ician", "ist", ""]],
  ["ic", ["icist", "ician", "ist", ""]],
];

/**
 * The words a field's practitioner may be written as, most likely first: "physics" -> physicist,
 * physician, physist, phys; "biology" -> biologist; "science" -> scientist; "statistic" ->
 * statistician; "linguistic" -> linguist. Empty when the word has no field ending. The index keeps
 * the one it has as a title's role word.
 */
export function practitionerForms(field: string): string[] {
  for (const [ending, forms] of PRACTITIONER_ENDINGS) {
    if (!field.endsWith(ending)) continue;
    const stem = field.slice(0, -ending.length);
    if (stem.length < 2) return [];
    return forms.map((form) => stem + form).filter((form) => form.length > 3);
  }
  return [];
}

/** Heads of a researcher's title: the field before them names the practitioner. */
export const RESEARCHER_HEADS = new Set(["scientist", "researcher"]);
