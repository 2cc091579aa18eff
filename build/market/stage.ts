/**
 * Step "read, normalise, extract, classify": streams every feed record once, writes the
 * normalised postings and their term mentions as NDJSON staging files, and counts records by
 * issue. Memory stays flat: only the occupation cache (bounded) and the counters grow.
 */
import { join } from "node:path";
import type { FeedFile, RawPosting } from "./feeds.ts";
import { readFeed } from "./feeds.ts";
import { DROPPING, normalizePosting, type RecordIssue } from "./normalize.ts";
import { extractMentions, type TermMatcher } from "./extract.ts";
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

/** Reads, normalises, extracts and classifies every feed; writes the staging NDJSON files. */
export async function stageFeeds(
  files: { file: FeedFile; feed: string }[],
  matcher: TermMatcher,
  classify: Classifier,
  dir: string,
): Promise<StagedFeeds> {
  const postingsFile = join(dir, "postings.ndjson");
  const mentionsFile = join(dir, "mentions.ndjson");
  const postingsOut = new LineWriter(postingsFile);
  const mentionsOut = new LineWriter(mentionsFile);
  const counts: FeedCounts[] = [];
  let postingId = 0;
  let mentionCount = 0;
  let latestDate: string | null = null;
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
      const note = (issue: RecordIssue) => count.issues[issue] = (count.issues[issue] ?? 0) + 1;
      const records: AsyncIterable<RawPosting> = readFeed(file, feed, () => {
        count.records++;
        count.dropped++;
        note("malformed_record");
      });
      for await (const raw of records) {
        count.records++;
        const { posting, issues } = normalizePosting(raw);
        for (const issue of issues) note(issue);
        if (!posting || issues.some((i) => DROPPING.has(i))) {
          count.dropped++;
          continue;
        }
        count.kept++;
        postingId++;
        const occupation = classify(posting.title);
        const mentions = extractMentions(matcher, posting.title, posting.description, raw.skills);
        if (posting.date_posted && (latestDate === null || posting.date_posted > latestDate)) {
          latestDate = posting.date_posted;
        }
        const { description, ...fields } = posting;
        await postingsOut.write(JSON.stringify({
          posting_id: postingId,
          ...fields,
          description_chars: description.length,
          // Stands in for the employer in the dedup key when a feed names none.
          description_fingerprint: description === ""
            ? null
            : createHash("md5").update(description.replace(/\s+/g, " ").trim().toLowerCase())
              .digest("hex").slice(0, 16),
          onet_code: occupation?.[0] ?? null,
          occupation_confidence: occupation?.[1] ?? null,
        }));
        for (const m of mentions) {
          mentionCount++;
          const term = matcher.terms[m.term];
          await mentionsOut.write(JSON.stringify({
            posting_id: postingId,
            term_type: term.type,
            term_id: term.id,
            field: m.field,
            span_start: m.start,
            span_end: m.end,
          }));
        }
      }
    }
  } finally {
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
