/**
 * The bodies of the taxonomy's read routes, summary (spec 2.6) and profile (2.7): every one of a
 * version, encoded once into one buffer. The taxonomy build writes them beside the data file
 * (`answers.snapshot`, serve/stores/snapshot.ts) with the version's facts (facts.ts); a server
 * whose occupation code wrote them loads that file with the version, without opening the data
 * file, and answers from slices of the buffer. Otherwise (an artifact built by other code) the
 * loader reads the facts and encodes the bodies from the data file while the version loads, before
 * it serves. Either way no request reads DuckDB, and nothing is filled in under load: the fill that
 * did this on a version's first request held every occupation's rows as objects at once (about 80
 * MB of peak RSS, measured with bench:serve).
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { join } from "node:path";
import type { Manifest } from "../../build/manifest.ts";
import type { DataFile } from "../stores/duckdb.ts";
import {
  fingerprintOnce,
  noPause,
  type Pause,
  PIECES,
  readSnapshotFile,
  timerPause,
  writeBack,
  writeParts,
} from "../stores/snapshot.ts";
import { factsFromParts, factsParts, readTaxonomyFacts, type TaxonomyFacts } from "./facts.ts";
import { allOccupationReads, type OccupationDetails, type SkillRating } from "./queries.ts";

/** The snapshot's file name inside a taxonomy artifact folder. */
export const ANSWERS_SNAPSHOT = "answers.snapshot";
/** Work between two pauses while encoding, so no request waits much longer than this on it. */
const ENCODE_SLICE_MS = 5;
const SUMMARY_SKILLS = 10;

const encoder = new TextEncoder();

/** What the bodies say of the version beside each occupation's own rows. */
export interface AnswerFacts {
  release: string;
  attribution: string;
}

/**
 * Every summary and profile body of a version: `bytes` holds them back to back, occupation by
 * occupation in code order (summary, then profile); `offsets` has 2 · codes + 1 entries.
 */
export class AnswerBook {
  readonly #at = new Map<string, number>();

  constructor(
    readonly codes: string[],
    readonly offsets: Int32Array,
    readonly bytes: Uint8Array<ArrayBuffer>,
  ) {
    if (offsets.length !== 2 * codes.length + 1 || offsets[0] !== 0) {
      throw new Error("answer offsets do not match the codes");
    }
    for (let i = 1; i < offsets.length; i++) {
      if (offsets[i] < offsets[i - 1]) throw new Error("answer offsets go backwards");
    }
    if (offsets[offsets.length - 1] !== bytes.byteLength) {
      throw new Error("answer offsets do not end at the end of the bytes");
    }
    codes.forEach((code, i) => this.#at.set(code, i));
  }

  /** The summary body of `code`, or null when the version has no such occupation. */
  summary(code: string): Uint8Array<ArrayBuffer> | null {
    return this.#body(code, 0);
  }

  /** The profile body of `code`, or null when the version has no such occupation. */
  profile(code: string): Uint8Array<ArrayBuffer> | null {
    return this.#body(code, 1);
  }

  #body(code: string, which: 0 | 1): Uint8Array<ArrayBuffer> | null {
    const i = this.#at.get(code);
    if (i === undefined) return null;
    return this.bytes.subarray(this.offsets[2 * i + which], this.offsets[2 * i + which + 1]);
  }
}

/** The summary (spec 2.6) of an occupation from its skills, most important first. */
export function summaryAnswer(
  facts: AnswerFacts,
  code: string,
  title: string,
  skills: SkillRating[],
) {
  return {
    onet_code: code,
    title,
    top_skills: skills.slice(0, SUMMARY_SKILLS).map((s) => ({
      skill_name: s.name,
      importance: s.importance,
      level: s.level,
    })),
    taxonomy_version: facts.release,
  };
}

/** The profile (spec 2.7) of an occupation. */
export function profileAnswer(
  facts: AnswerFacts,
  code: string,
  title: string,
  skills: SkillRating[],
  details: OccupationDetails,
) {
  return {
    occupation: { onet_code: code, title, description: details.description },
    skills,
    technologies: details.technologies,
    tasks: details.tasks,
    related_occupations: details.related,
    taxonomy_version: facts.release,
    attribution: facts.attribution,
  };
}

/**
 * Encodes the summary and profile of every occupation of `read` (in its order) from an opened
 * taxonomy file (one read per table, `pause` awaited between chunks and between slices of the
 * encoding).
 */
export async function buildAnswerBook(
  connection: DuckDBConnection,
  read: TaxonomyFacts,
  pause: Pause = timerPause,
): Promise<AnswerBook> {
  const facts = read.facts;
  const titles = [...read.occupations.values()].map((o) => [o.onetCode, o.title] as const);
  const reads = await allOccupationReads(connection, pause);
  const codes: string[] = [];
  const bodies: Uint8Array[] = [];
  const offsets = new Int32Array(2 * titles.length + 1);
  let sliceStart = performance.now();
  for (const [code, title] of titles) {
    const read = reads.get(code);
    const skills = read?.skills ?? [];
    const details = read?.details ??
      { description: null, technologies: [], tasks: [], related: [] };
    for (
      const value of [
        summaryAnswer(facts, code, title, skills),
        profileAnswer(facts, code, title, skills, details),
      ]
    ) {
      const body = encoder.encode(JSON.stringify(value));
      offsets[bodies.length + 1] = offsets[bodies.length] + body.byteLength;
      bodies.push(body);
    }
    codes.push(code);
    if (performance.now() - sliceStart >= ENCODE_SLICE_MS) {
      await pause();
      sliceStart = performance.now();
    }
  }
  const bytes = new Uint8Array(offsets[bodies.length]);
  bodies.forEach((body, i) => bytes.set(body, offsets[i]));
  return new AnswerBook(codes, offsets, bytes);
}

/** The fingerprint of the code that shapes the bodies (this folder: answers.ts, queries.ts...). */
const answersFingerprint = fingerprintOnce("answers 2", [new URL("./", import.meta.url)]);

/**
 * Writes a version's bodies and facts into its folder (the taxonomy build's last step, and a
 * server that had to encode them: loadAnswers); returns the size.
 */
export async function writeAnswerSnapshot(
  dir: string,
  book: AnswerBook,
  read: TaxonomyFacts,
  pause: Pause = noPause,
): Promise<number> {
  const print = await answersFingerprint();
  if (print === null) throw new Error("the occupation code cannot be read: no fingerprint");
  return await writeParts(
    join(dir, ANSWERS_SNAPSHOT),
    print,
    [
      ["codes", book.codes],
      ["offsets", book.offsets],
      ["bytes", book.bytes],
      ...factsParts(read),
    ],
    PIECES,
    { pause },
  );
}

/** A version's facts and bodies, and where they came from. */
export interface LoadedAnswers extends TaxonomyFacts {
  book: AnswerBook;
  /** "snapshot", or "encoded (<why the snapshot was not used>)". */
  from: string;
}

/**
 * A version's facts and bodies: from its folder's snapshot when this code wrote it for this
 * release, else read and encoded from the data file (`tables`, opened only then).
 */
export async function loadAnswers(
  tables: DataFile,
  manifest: Manifest,
  dir?: string,
  pause: Pause = timerPause,
): Promise<LoadedAnswers> {
  const release = manifest.release.version;
  let reason = "no folder";
  if (dir) {
    const read = await readSnapshotFile(join(dir, ANSWERS_SNAPSHOT), await answersFingerprint(), {
      pause,
    });
    reason = read.reason ?? "";
    if (read.parts) {
      try {
        const stored = factsFromParts(read.parts);
        if (!stored) throw new Error("no facts");
        if (stored.facts.release !== release) throw new Error("another release");
        const book = new AnswerBook(
          read.parts.get("codes") as string[],
          read.parts.get("offsets") as Int32Array,
          read.parts.get("bytes") as Uint8Array<ArrayBuffer>,
        );
        const codes = [...stored.occupations.keys()];
        if (codes.length !== book.codes.length || codes.some((c, i) => c !== book.codes[i])) {
          throw new Error("bodies of other occupations");
        }
        return { ...stored, book, from: "snapshot" };
      } catch (error) {
        reason = `unusable snapshot: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  }
  const connection = await tables();
  const read = await readTaxonomyFacts(connection, release, manifest.attribution);
  const book = await buildAnswerBook(connection, read, pause);
  // The next load of this version reads the bodies instead of encoding them again.
  const written = dir
    ? `, snapshot ${await writeBack(() => writeAnswerSnapshot(dir, book, read, pause))}`
    : "";
  return { ...read, book, from: `encoded (${reason})${written}` };
}
