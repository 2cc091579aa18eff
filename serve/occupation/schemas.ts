/** Schemas of the occupation routes. */
import { z } from "@hono/zod-openapi";

/** An O*NET-SOC code path parameter: `NN-NNNN.NN`. */
export const OnetCodeParam = z.object({
  onet_code: z.string().regex(/^\d{2}-\d{4}\.\d{2}$/, "Must be an O*NET-SOC code like 29-1141.00")
    .openapi({ param: { name: "onet_code", in: "path" }, example: "29-1141.00" }),
});

const Skill = z.object({
  skill_name: z.string(),
  importance: z.number().openapi({ description: "O*NET importance, 1-5." }),
  level: z.number().nullable().openapi({ description: "O*NET level, 0-7." }),
});

export const OccupationSummary = z.object({
  onet_code: z.string(),
  title: z.string(),
  top_skills: z.array(Skill).openapi({ description: "Up to 10 skills, most important first." }),
  taxonomy_version: z.string(),
}).openapi("OccupationSummary");

export const OccupationProfile = z.object({
  occupation: z.object({
    onet_code: z.string(),
    title: z.string(),
    description: z.string().nullable(),
  }),
  skills: z.array(z.object({
    name: z.string(),
    importance: z.number(),
    level: z.number().nullable(),
  })).openapi({ description: "Every rated skill, most important first." }),
  technologies: z.array(z.object({
    name: z.string(),
    category: z.string().nullable().openapi({ description: "UNSPSC commodity title." }),
    is_hot: z.boolean(),
    is_in_demand: z.boolean(),
  })).openapi({ description: "Software and technology examples; hot and in-demand first." }),
  tasks: z.array(z.string()).openapi({ description: "Task statements, core tasks first." }),
  related_occupations: z.array(z.object({
    onet_code: z.string(),
    title: z.string(),
    relatedness_tier: z.string().openapi({
      description: "O*NET tier: Primary-Short, Primary-Long or Supplemental.",
    }),
    rank: z.number().int().openapi({ description: "O*NET relatedness index, 1 = closest." }),
  })),
  taxonomy_version: z.string(),
  attribution: z.string(),
}).openapi("OccupationProfile");
