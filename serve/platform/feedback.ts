/** Feedback from an account: created, listed and read by its owner only. */
import type { Kysely, Selectable } from "kysely";
import type { DB, FeedbackTable } from "../stores/schema.ts";
import { ApiError } from "../http/errors.ts";

/** Feedback categories. */
export const FEEDBACK_CATEGORIES = [
  "accuracy",
  "bug",
  "data_quality",
  "documentation",
  "feature_request",
  "other",
] as const;

/** The public view of a feedback record. */
export function feedbackView(row: Selectable<FeedbackTable>) {
  return {
    feedback_id: Number(row.id),
    category: row.category,
    message: row.message,
    rating: row.rating,
    related_request_id: row.related_request_id,
    created_at: row.created_at.toISOString(),
  };
}

/** Stores one feedback record. */
export async function createFeedback(
  db: Kysely<DB>,
  accountId: string,
  input: { category: string; message: string; rating?: number; related_request_id?: string },
  now: Date,
) {
  const row = await db.insertInto("feedback").values({
    account_id: accountId,
    category: input.category,
    message: input.message,
    rating: input.rating ?? null,
    related_request_id: input.related_request_id ?? null,
    created_at: now,
  }).returningAll().executeTakeFirstOrThrow();
  return feedbackView(row);
}

/** The account's feedback, newest first. */
export async function listFeedback(db: Kysely<DB>, accountId: string) {
  const rows = await db.selectFrom("feedback").selectAll().where("account_id", "=", accountId)
    .orderBy("id", "desc").execute();
  return rows.map(feedbackView);
}

/** One feedback record of the account; someone else's is not found. */
export async function getFeedback(db: Kysely<DB>, accountId: string, id: number) {
  const row = await db.selectFrom("feedback").selectAll().where("account_id", "=", accountId)
    .where("id", "=", String(id)).executeTakeFirst();
  if (!row) throw new ApiError("not_found", "no feedback of this account has this id");
  return feedbackView(row);
}
