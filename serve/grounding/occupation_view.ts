/**
 * The occupation engine's view of a role for grounding: the top taxonomy candidates of the
 * role title (with the context as description when given) and, for each, the skills, tasks and
 * technologies the report engine may state when the tenant's evidence supports them.
 */
import type { LoadedArtifact } from "../stores/artifacts.ts";
import type { TaxonomyData } from "../occupation/artifact.ts";
import { assess } from "../occupation/engine/confidence.ts";
import type { OccupationView } from "./types.ts";

/** What the view reads of one occupation: fixed for a loaded artifact version. */
interface OccupationContent {
  skills: string[];
  tasks: string[];
  technologies: string[];
}

/**
 * The content read per occupation, per loaded artifact (a new version is a new object, so a
 * swapped artifact never serves the old content). It is read from the version's profile body (the
 * same skills, tasks and technologies in the same order), parsed once per occupation; the
 * taxonomy's content is immutable, so the cache changes no answer.
 */
const CONTENT_CACHE = new WeakMap<object, Map<string, OccupationContent>>();
/** Occupations cached per artifact at most (the taxonomy has about a thousand). */
const CONTENT_CACHE_SIZE = 2000;

const decoder = new TextDecoder();

function contentOf(artifact: LoadedArtifact<TaxonomyData>, code: string): OccupationContent {
  let cache = CONTENT_CACHE.get(artifact.data);
  if (!cache) CONTENT_CACHE.set(artifact.data, cache = new Map());
  const hit = cache.get(code);
  if (hit) return hit;
  const body = artifact.data.answers.profile(code);
  const profile: {
    skills: { name: string }[];
    tasks: string[];
    technologies: { name: string }[];
  } = body ? JSON.parse(decoder.decode(body)) : { skills: [], tasks: [], technologies: [] };
  const content = {
    skills: profile.skills.slice(0, VIEW_BOUNDS.skills).map((s) => s.name),
    tasks: profile.tasks.slice(0, VIEW_BOUNDS.tasks),
    technologies: profile.technologies.slice(0, VIEW_BOUNDS.technologies).map((t) => t.name),
  };
  if (cache.size >= CONTENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(code, content);
  return content;
}

/** Candidates kept, and the bounds of each candidate's lists. */
export const VIEW_BOUNDS = { candidates: 3, skills: 15, tasks: 20, technologies: 30 };

/** Ranks the role and reads each candidate's taxonomy content. */
export async function occupationView(
  artifact: LoadedArtifact<TaxonomyData>,
  role: { title: string; context: string | null },
): Promise<OccupationView> {
  const data = artifact.data;
  const semantic = data.engine.hasVectors;
  const calibration = data.calibrations.get(semantic ? "hybrid" : "lexical") ??
    data.calibrations.get("lexical")!;
  const ranking = await data.engine.rank({
    query: { title: role.title, description: role.context ?? undefined },
    options: { limit: 10, semantic },
  });
  const confidence = assess(ranking, calibration).confidence;
  const top = ranking.results.slice(0, VIEW_BOUNDS.candidates);
  const best = top[0]?.score ?? 0;
  const candidates = [];
  for (const [i, result] of top.entries()) {
    const content = contentOf(artifact, result.onetCode);
    candidates.push({
      onet_code: result.onetCode,
      title: result.title,
      // The first candidate carries the calibrated confidence; the others are scaled by score.
      score: Math.round((i === 0 ? confidence : confidence * (result.score / best)) * 1e4) / 1e4,
      // Copies: the report engine gets arrays it may not share with the next request.
      skills: [...content.skills],
      tasks: [...content.tasks],
      technologies: [...content.technologies],
    });
  }
  return {
    taxonomy_release: data.release,
    taxonomy_version: artifact.version,
    candidates,
  };
}
