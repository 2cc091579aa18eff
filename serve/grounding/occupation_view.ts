/**
 * The occupation engine's view of a role for grounding: the top taxonomy candidates of the
 * role title (with the context as description when given) and, for each, the skills, tasks and
 * technologies the report engine may state when the tenant's evidence supports them.
 */
import type { LoadedArtifact } from "../stores/artifacts.ts";
import type { TaxonomyData } from "../occupation/artifact.ts";
import { occupationDetails, occupationSkills } from "../occupation/queries.ts";
import { assess } from "../occupation/engine/confidence.ts";
import type { OccupationView } from "./types.ts";

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
  const ranking = data.engine.rank(
    { title: role.title, description: role.context ?? undefined },
    { limit: 10, semantic },
  );
  const confidence = assess(ranking, calibration).confidence;
  const top = ranking.results.slice(0, VIEW_BOUNDS.candidates);
  const best = top[0]?.score ?? 0;
  const candidates = [];
  for (const [i, result] of top.entries()) {
    const details = await occupationDetails(artifact.connection, result.onetCode);
    const skills = await occupationSkills(artifact.connection, result.onetCode, VIEW_BOUNDS.skills);
    candidates.push({
      onet_code: result.onetCode,
      title: result.title,
      // The first candidate carries the calibrated confidence; the others are scaled by score.
      score: Math.round((i === 0 ? confidence : confidence * (result.score / best)) * 1e4) / 1e4,
      skills: skills.map((s) => s.name),
      tasks: details.tasks.slice(0, VIEW_BOUNDS.tasks),
      technologies: details.technologies.slice(0, VIEW_BOUNDS.technologies).map((t) => t.name),
    });
  }
  return {
    taxonomy_release: data.release,
    taxonomy_version: artifact.version,
    candidates,
  };
}
