/**
 * The built ranking index on disk: the taxonomy build writes it beside `taxonomy.duckdb`
 * (`engine.snapshot`, serve/stores/snapshot.ts), and a server whose engine code is the one that
 * wrote it loads the index from it instead of building it (about 2 s of CPU for the full release,
 * the largest part of start-up). The fingerprint covers RANKER_VERSION and the source of this
 * folder and of the text normaliser (serve/text/).
 */
import { join } from "node:path";
import { OccupationIndex, RANKER_VERSION } from "./index.ts";
import {
  fingerprintOnce,
  PIECES,
  readSnapshotFile,
  runSliced,
  type SliceOptions,
  timerPause,
  writeParts,
} from "../../stores/snapshot.ts";

/** The snapshot's file name inside a taxonomy artifact folder. */
export const SNAPSHOT_FILE = "engine.snapshot";

const SOURCES = [new URL("./", import.meta.url), new URL("../../text/", import.meta.url)];

/** The fingerprint of this engine's code (null when its source cannot be read). */
export const engineFingerprint = fingerprintOnce(`ranker ${RANKER_VERSION}`, SOURCES);

/**
 * Writes the index's snapshot into an artifact folder; returns the file's size. The taxonomy build
 * writes it, and so does the ranking worker when it had to build an index because the snapshot was
 * another engine's (ranking_worker.ts), so only the first start or swap after an upgrade pays for
 * the build.
 */
export async function writeSnapshot(
  dir: string,
  index: OccupationIndex,
  /** Piece sizes (tests make them small so that every part comes in pieces). */
  sizes: typeof PIECES = PIECES,
  options: SliceOptions = {},
): Promise<number> {
  const print = await engineFingerprint();
  if (print === null) throw new Error("the engine's source cannot be read: no fingerprint");
  return await writeParts(join(dir, SNAPSHOT_FILE), print, index.snapshot(), sizes, options);
}

/** Why a snapshot was not used (null when it was). */
export type SnapshotOutcome =
  | { index: OccupationIndex; reason: null }
  | { index: null; reason: string };

/**
 * Loads the index from an artifact folder's snapshot, pausing between parts (as buildAsync does)
 * so a server keeps answering; or says why it could not (absent, another engine's, damaged).
 */
export async function readSnapshot(
  dir: string,
  options: SliceOptions = {},
): Promise<SnapshotOutcome> {
  const read = await readSnapshotFile(
    join(dir, SNAPSHOT_FILE),
    await engineFingerprint(),
    options,
  );
  if (read.parts === null) return { index: null, reason: read.reason };
  try {
    const index = await runSliced(
      OccupationIndex.fromSnapshot(read.parts),
      options.sliceMs ?? 8,
      options.pause ?? timerPause,
    );
    return { index, reason: null };
  } catch (error) {
    return { index: null, reason: `damaged snapshot: ${String(error)}` };
  }
}
