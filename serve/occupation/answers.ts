/**
 * Serialised answers of the taxonomy's read routes (summary and profile), per artifact version:
 * the same route and code on the same version is the same bytes, so each is encoded once and
 * then served from memory. The first request on a version also starts a fill that reads every
 * occupation with one query per table and encodes all answers, pausing between slices so other
 * requests keep being served; until it is done a miss reads its one code as before. The cache
 * hangs off the version's TaxonomyData (a WeakMap), so a hot swap starts a new one and the old
 * answers go with the old version.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { ArtifactRegistry } from "../stores/artifacts.ts";
import type { TaxonomyData } from "./artifact.ts";
import { timerPause } from "../stores/snapshot.ts";
import {
  allOccupationReads,
  type OccupationDetails,
  occupationDetails,
  occupationSkills,
  type SkillRating,
} from "./queries.ts";

/** Encoded bodies kept per version: every summary and profile of the full release fits. */
export const ANSWER_BYTES_MAX = 64 * 1024 * 1024;
/** Work between two pauses of the fill, so no request waits much longer than this on it. */
const FILL_SLICE_MS = 5;
const SUMMARY_SKILLS = 10;

const encoder = new TextEncoder();
type Body = Uint8Array<ArrayBuffer>;

/** A byte-bounded LRU of encoded JSON bodies; concurrent misses of one key share one build. */
export class AnswerCache {
  readonly #bodies = new Map<string, Body>();
  readonly #building = new Map<string, Promise<Body>>();
  #bytes = 0;
  /** The fill of every answer: started by the first request, once. */
  fill: Promise<void> | null = null;

  constructor(readonly maxBytes = ANSWER_BYTES_MAX) {}

  /** Bytes of the bodies held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The body of `key`, built (and kept) on a miss as JSON.stringify of what build returns. */
  get(key: string, build: () => Promise<unknown>): Promise<Body> {
    const hit = this.#bodies.get(key);
    if (hit) {
      this.#bodies.delete(key);
      this.#bodies.set(key, hit);
      return Promise.resolve(hit);
    }
    let pending = this.#building.get(key);
    if (!pending) {
      pending = build().then((value) => this.put(key, value))
        .finally(() => this.#building.delete(key));
      this.#building.set(key, pending);
    }
    return pending;
  }

  /** Encodes and keeps `value` as the body of `key` unless one is already kept. */
  put(key: string, value: unknown): Body {
    const kept = this.#bodies.get(key);
    if (kept) return kept;
    const body = encoder.encode(JSON.stringify(value));
    if (body.byteLength > this.maxBytes) return body;
    this.#bodies.set(key, body);
    this.#bytes += body.byteLength;
    for (const [oldest, old] of this.#bodies) {
      if (this.#bytes <= this.maxBytes) break;
      this.#bodies.delete(oldest);
      this.#bytes -= old.byteLength;
    }
    return body;
  }
}

const caches = new WeakMap<TaxonomyData, AnswerCache>();

/** The answer cache of one taxonomy version, made on first use. */
export function answersOf(data: TaxonomyData): AnswerCache {
  let cache = caches.get(data);
  if (!cache) caches.set(data, cache = new AnswerCache());
  return cache;
}

/** The summary (spec 2.6) of an occupation from its skills, most important first. */
export function summaryAnswer(data: TaxonomyData, code: string, skills: SkillRating[]) {
  return {
    onet_code: code,
    title: data.occupations.get(code)!.title,
    top_skills: skills.slice(0, SUMMARY_SKILLS).map((s) => ({
      skill_name: s.name,
      importance: s.importance,
      level: s.level,
    })),
    taxonomy_version: data.release,
  };
}

/** The profile (spec 2.7) of an occupation. */
export function profileAnswer(
  data: TaxonomyData,
  code: string,
  skills: SkillRating[],
  details: OccupationDetails,
) {
  return {
    occupation: {
      onet_code: code,
      title: data.occupations.get(code)!.title,
      description: details.description,
    },
    skills,
    technologies: details.technologies,
    tasks: details.tasks,
    related_occupations: details.related,
    taxonomy_version: data.release,
    attribution: data.attribution,
  };
}

/** The summary's cache key and its build from DuckDB for one code. */
export function summaryOf(connection: DuckDBConnection, data: TaxonomyData, code: string) {
  return [
    `summary|${code}`,
    async () => summaryAnswer(data, code, await occupationSkills(connection, code, SUMMARY_SKILLS)),
  ] as const;
}

/** The profile's cache key and its build from DuckDB for one code. */
export function profileOf(connection: DuckDBConnection, data: TaxonomyData, code: string) {
  return [
    `profile|${code}`,
    async () =>
      profileAnswer(
        data,
        code,
        await occupationSkills(connection, code),
        await occupationDetails(connection, code),
      ),
  ] as const;
}

/**
 * Starts (once per version) the fill of every summary and profile of `data`, while the
 * registry still serves that version; it holds a lease so the version stays open meanwhile.
 */
export function startFill(artifacts: ArtifactRegistry, data: TaxonomyData): Promise<void> {
  const cache = answersOf(data);
  cache.fill ??= (async () => {
    await timerPause(); // after the request that started it
    const lease = artifacts.acquire<TaxonomyData>("taxonomy");
    if (!lease) return;
    try {
      if (lease.artifact.data !== data) return; // swapped meanwhile: that version fills itself
      const reads = await allOccupationReads(lease.artifact.connection, timerPause);
      let sliceStart = performance.now();
      for (const [code, { skills, details }] of reads) {
        if (!data.occupations.has(code)) continue;
        cache.put(`summary|${code}`, summaryAnswer(data, code, skills));
        cache.put(`profile|${code}`, profileAnswer(data, code, skills, details));
        if (performance.now() - sliceStart >= FILL_SLICE_MS) {
          await timerPause();
          sliceStart = performance.now();
        }
      }
    } finally {
      lease.release();
    }
  })();
  return cache.fill;
}
