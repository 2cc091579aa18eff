/** The artifact manifest: what a build read, what it wrote, and the hashes that prove it. */

/** Bumped when the layout of the taxonomy tables changes incompatibly. */
export const TAXONOMY_SCHEMA_VERSION = 1;

/** One input file of a build. */
export interface ManifestInput {
  file: string;
  required: boolean;
  status: "present" | "absent";
  bytes?: number;
  sha256?: string;
  rows?: number;
  /** O*NET files: the header style the file was read in (named, lean, or common to both). */
  header_style?: "named" | "lean" | "common";
}

/** How an O*NET release folder was laid out: its file family and header style. */
export interface ManifestOnetLayout {
  /** The declared release family whose file set was read (29.x, 30.0-30.2, 30.3+). */
  family: string;
  /** named, lean, or mixed when the folder holds files in both (e.g. Excel-converted ones). */
  header_style: "named" | "lean" | "mixed";
}

/** One served table of an artifact. */
export interface ManifestTable {
  name: string;
  rows: number;
  content_hash: string;
  /** "absent" when every input the table is built from was missing from the release. */
  source_status: "present" | "absent";
}

/** The manifest.json written next to every artifact file. */
export interface Manifest {
  schema_version: number;
  artifact: string;
  version: string;
  release: { source: string; version: string; label: string | null };
  /** Taxonomy artifacts: the O*NET file family and header style the release was read in. */
  onet_layout?: ManifestOnetLayout;
  normalizer_version: string;
  /** Version of the ranking code the stored calibration was fitted with (absent before it). */
  ranker_version?: string;
  inputs: ManifestInput[];
  tables: ManifestTable[];
  file: { name: string; bytes: number; sha256: string };
  content_hash: string;
  attribution: string;
  /** Market artifacts: window, dedup rule, taxonomy used and record counts by issue. */
  market?: object;
  /** Evidence artifacts: approved files, files left out and why, vintages, bounds. */
  evidence?: object;
}

/** Parses and shape-checks a manifest; throws with the reason when it is not one. */
export function parseManifest(text: string): Manifest {
  const value = JSON.parse(text) as Partial<Manifest>;
  const problems: string[] = [];
  if (typeof value.schema_version !== "number") problems.push("schema_version");
  if (typeof value.artifact !== "string") problems.push("artifact");
  if (typeof value.version !== "string") problems.push("version");
  if (typeof value.release?.version !== "string") problems.push("release.version");
  if (typeof value.normalizer_version !== "string") problems.push("normalizer_version");
  if (!Array.isArray(value.tables)) problems.push("tables");
  if (typeof value.file?.sha256 !== "string" || typeof value.file?.name !== "string") {
    problems.push("file");
  }
  if (typeof value.content_hash !== "string") problems.push("content_hash");
  if (problems.length > 0) throw new Error(`manifest is missing ${problems.join(", ")}`);
  return value as Manifest;
}
