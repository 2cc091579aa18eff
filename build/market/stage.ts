/**
 * Step "read, normalise, extract, classify": streams every feed record once, writes the
 * normalised postings and their term mentions as NDJSON staging files, and counts records by
 * issue. Memory stays flat: only the occupation cache (bounded) and the counters grow.
 */
import { join } from "node:path";
import type { FeedFile, RawPosting } from "./feeds.ts";
import { readFeed } from "./feeds.ts";
import {
  DROPPING,
  type NormalizedPosting,
  normalizePosting,
  type RecordIssue,
} from "./normalize.ts";
import {
  type ElementSynonyms,
  extractMentions,
  type TechnologyAliases,
  type TermMatcher,
  type TermType,
} from "./extract.ts";
import { createHash } from "node:crypto";

/** Counts of one feed file. */
export interface FeedCounts {
  feed: string;
  file: string;
  records: number;
  kept: number;
  dropped: number;
  issues: Partial<Record<RecordIssue, number>>;
}

/** Classifies a posting title: [onet_code, confidence] or null when nothing grounds. */
export type Classifier = (title: string) => [string, number] | null;

/** What staging produced. */
export interface StagedFeeds {
  postingsFile: string;
  mentionsFile: string;
  postings: number;
  mentions: number;
  counts: FeedCounts[];
  latestDate: string | null;
}

/** A buffered line writer. */
class LineWriter {
  #parts: string[] = [];
  #size = 0;
  #file: Deno.FsFile;
  #encoder = new TextEncoder();
  constructor(path: string) {
    this.#file = Deno.openSync(path, { write: true, create: true, truncate: true });
  }
  async write(line: string): Promise<void> {
    this.#parts.push(line);
    this.#size += line.length + 1;
    if (this.#size > 1 << 20) await this.flush();
  }
  async flush(): Promise<void> {
    if (this.#parts.length === 0) return;
    const bytes = this.#encoder.encode(this.#parts.join("\n") + "\n");
    this.#parts = [];
    this.#size = 0;
    let written = 0;
    while (written < bytes.length) written += await this.#file.write(bytes.subarray(written));
  }
  async close(): Promise<void> {
    await this.flush();
    this.#file.close();
  }
}

/** One record after normalisation and extraction (what a staging worker sends back). */
export interface Processed {
  issues: RecordIssue[];
  /** The staged fields, or null when the record is dropped. */
  fields:
    | (Omit<NormalizedPosting, "description"> & {
      description_chars: number;
      description_fingerprint: string | null;
    })
    | null;
  /** Mentions, flat: term index, field (0 title, 1 description, 2 skills), start, end. */
  mentions: number[];
}

const FIELDS = ["title", "description", "skills"] as const;
const ISSUE_ORDER: RecordIssue[] = [
  "malformed_record",
  "no_title",
  "unparseable_date",
  "no_date",
  "unknown_country",
];

/** Normalises one record and extracts its mentions: pure, so it runs in a worker as well. */
export function processRecord(raw: RawPosting, matcher: TermMatcher): Processed {
  const { posting, issues } = normalizePosting(raw);
  if (!posting || issues.some((i) => DROPPING.has(i))) {
    return { issues, fields: null, mentions: [] };
  }
  const { description, ...fields } = posting;
  const mentions: number[] = [];
  for (const m of extractMentions(matcher, posting.title, description, raw.skills)) {
    mentions.push(m.term, FIELDS.indexOf(m.field), m.start, m.end);
  }
  return {
    issues,
    fields: {
      ...fields,
      description_chars: description.length,
      // Stands in for the employer in the dedup key when a feed names none.
      description_fingerprint: description === ""
        ? null
        : createHash("md5").update(description.replace(/\s+/g, " ").trim().toLowerCase())
          .digest("hex").slice(0, 16),
    },
    mentions,
  };
}

/** What a staging worker needs to compile the same matcher as the main thread. */
export interface DictionaryInputs {
  technologies: string[];
  elements: [string, string, TermType][];
  curated: { aliases: TechnologyAliases; synonyms: ElementSynonyms };
}

/** Workers that normalise and extract batches of records, answering in any order. */
class StagePool {
  #workers: Worker[] = [];
  #waiting = new Map<number, { resolve(r: Processed[]): void; reject(e: unknown): void }>();
  #next = 0;
  #id = 0;
  constructor(size: number, dictionary: DictionaryInputs) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(new URL("./stage_worker.ts", import.meta.url).href, {
        type: "module",
      });
      worker.onmessage = (event: MessageEvent<{ id: number; results: Processed[] }>) => {
        const waiting = this.#waiting.get(event.data.id);
        this.#waiting.delete(event.data.id);
        waiting?.resolve(event.data.results);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        for (const waiting of this.#waiting.values()) waiting.reject(new Error(event.message));
        this.#waiting.clear();
      };
      worker.postMessage({ type: "init", dictionary });
      this.#workers.push(worker);
    }
  }
  run(raws: RawPosting[]): Promise<Processed[]> {
    const id = ++this.#id;
    const worker = this.#workers[this.#next++ % this.#workers.length];
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage({ type: "batch", id, raws });
    });
  }
  close(): void {
    for (const worker of this.#workers) worker.terminate();
  }
}

/** Staging workers by default: both cores of a small machine, leaving the main thread its own. */
export const DEFAULT_STAGE_WORKERS = Math.max(1, Math.min(3, navigator.hardwareConcurrency));
const BATCH = 256;

/**
 * Reads, normalises, extracts and classifies every feed; writes the staging NDJSON files.
 * With `workers` > 0, normalisation and extraction run in that many workers while this thread
 * reads, classifies and writes; results are written in read order, so posting ids and the
 * output are the same as with `workers` = 0.
 */
export async function stageFeeds(
  files: { file: FeedFile; feed: string }[],
  matcher: TermMatcher,
  dictionary: DictionaryInputs,
  classify: Classifier,
  dir: string,
  workers = DEFAULT_STAGE_WORKERS,
): Promise<StagedFeeds> {
  const postingsFile = join(dir, "postings.ndjson");
  const mentionsFile = join(dir, "mentions.ndjson");
  const postingsOut = new LineWriter(postingsFile);
  const mentionsOut = new LineWriter(mentionsFile);
  const counts: FeedCounts[] = [];
  let postingId = 0;
  let mentionCount = 0;
  let latestDate: string | null = null;
  const pool = workers > 0 ? new StagePool(workers, dictionary) : null;
  const pending: { count: FeedCounts; results: Promise<Processed[]> }[] = [];

  const write = async (count: FeedCounts, results: Processed[]) => {
    for (const result of results) {
      count.records++;
      for (const issue of result.issues) count.issues[issue] = (count.issues[issue] ?? 0) + 1;
      const fields = result.fields;
      if (!fields) {
        count.dropped++;
        continue;
      }
      count.kept++;
      postingId++;
      const occupation = classify(fields.title);
      if (fields.date_posted && (latestDate === null || fields.date_posted > latestDate)) {
        latestDate = fields.date_posted;
      }
      await postingsOut.write(JSON.stringify({
        posting_id: postingId,
        ...fields,
        onet_code: occupation?.[0] ?? null,
        occupation_confidence: occupation?.[1] ?? null,
      }));
      const m = result.mentions;
      for (let i = 0; i < m.length; i += 4) {
        mentionCount++;
        const term = matcher.terms[m[i]];
        await mentionsOut.write(JSON.stringify({
          posting_id: postingId,
          term_type: term.type,
          term_id: term.id,
          field: FIELDS[m[i + 1]],
          span_start: m[i + 2],
          span_end: m[i + 3],
        }));
      }
    }
  };
  const drainOne = async () => {
    const head = pending.shift()!;
    await write(head.count, await head.results);
  };

  try {
    for (const { file, feed } of files) {
      const count: FeedCounts = {
        feed,
        file: file.name,
        records: 0,
        kept: 0,
        dropped: 0,
        issues: {},
      };
      counts.push(count);
      const records: AsyncIterable<RawPosting> = readFeed(file, feed, () => {
        count.records++;
        count.dropped++;
        count.issues.malformed_record = (count.issues.malformed_record ?? 0) + 1;
      });
      let batch: RawPosting[] = [];
      for await (const raw of records) {
        if (!pool) {
          await write(count, [processRecord(raw, matcher)]);
          continue;
        }
        batch.push(raw);
        if (batch.length === BATCH) {
          pending.push({ count, results: pool.run(batch) });
          batch = [];
          while (pending.length > 4 * workers) await drainOne();
        }
      }
      if (batch.length > 0) pending.push({ count, results: pool!.run(batch) });
    }
    while (pending.length > 0) await drainOne();
    // Issues in one fixed order, whatever order they were met in (reports and the manifest).
    for (const count of counts) {
      const issues = count.issues;
      count.issues = {};
      for (const issue of ISSUE_ORDER) if (issues[issue]) count.issues[issue] = issues[issue];
    }
  } finally {
    pool?.close();
    await postingsOut.close();
    await mentionsOut.close();
  }
  return {
    postingsFile,
    mentionsFile,
    postings: postingId,
    mentions: mentionCount,
    counts,
    latestDate,
  };
}
