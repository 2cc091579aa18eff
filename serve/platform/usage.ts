/**
 * Usage views over metered runtime requests, aggregated by route and status in UTC: the
 * current day, the current month, and a day-by-day history of the last 30 days. Requests are
 * counted per key, route, status and UTC minute (usage_minutes, serve/http/metering.ts), and a
 * minute lies within one day, so the totals and average durations are exact.
 */
import { type Kysely, sql } from "kysely";
import type { DB } from "../stores/schema.ts";

/** Days of history GET /usage returns. */
export const HISTORY_DAYS = 30;

interface Group {
  method: string;
  route: string;
  status: number;
  requests: number;
  avg_duration_ms: number;
}

type DayGroup = Group & { day: string };

/** Requests per UTC day, method, route and status in [from, to). */
async function grouped(db: Kysely<DB>, accountId: string, from: Date, to: Date) {
  const counted = await db.selectFrom("usage_minutes")
    .select([
      sql<string>`to_char(minute AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.as("day"),
      "method",
      "route",
      "status",
      sql<string>`sum(requests)`.as("requests"),
      sql<number>`sum(duration_ms_total)`.as("duration_total"),
    ])
    .where("account_id", "=", accountId).where("minute", ">=", from).where("minute", "<", to)
    .groupBy(["day", "method", "route", "status"])
    .execute();
  return counted.map((r) => {
    const requests = Number(r.requests);
    return {
      day: r.day,
      method: r.method,
      route: r.route,
      status: Number(r.status),
      requests,
      avg_duration_ms: Math.round((Number(r.duration_total) / Math.max(1, requests)) * 1000) /
        1000,
    };
  }).sort((a, b) =>
    a.day.localeCompare(b.day) || a.route.localeCompare(b.route) ||
    a.method.localeCompare(b.method) || a.status - b.status
  );
}

function merge(rows: DayGroup[]): Group[] {
  const by = new Map<string, Group & { total: number }>();
  for (const r of rows) {
    const key = `${r.route}\u0000${r.method}\u0000${r.status}`;
    const g = by.get(key) ?? { ...r, requests: 0, total: 0 };
    g.requests += r.requests;
    g.total += r.avg_duration_ms * r.requests;
    by.set(key, g);
  }
  return [...by.values()].map(({ total, ...g }) => ({
    method: g.method,
    route: g.route,
    status: g.status,
    requests: g.requests,
    avg_duration_ms: Math.round((total / Math.max(1, g.requests)) * 1000) / 1000,
  })).sort((a, b) =>
    a.route.localeCompare(b.route) || a.method.localeCompare(b.method) || a.status - b.status
  );
}

function dayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Usage in [from, to), as one aggregate. */
export async function usagePeriod(
  db: Kysely<DB>,
  accountId: string,
  period: "day" | "month",
  now: Date,
) {
  const from = period === "day"
    ? dayStart(now)
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const to = period === "day"
    ? new Date(from.getTime() + 86_400_000)
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const by_route = merge(await grouped(db, accountId, from, to));
  return {
    period,
    from: from.toISOString(),
    to: to.toISOString(),
    total_requests: by_route.reduce((n, g) => n + g.requests, 0),
    by_route,
  };
}

/** Day-by-day usage over the last HISTORY_DAYS UTC days, today included. */
export async function usageHistory(db: Kysely<DB>, accountId: string, now: Date) {
  const to = new Date(dayStart(now).getTime() + 86_400_000);
  const from = new Date(to.getTime() - HISTORY_DAYS * 86_400_000);
  const rows = await grouped(db, accountId, from, to);
  const days = new Map<string, DayGroup[]>();
  for (const r of rows) days.set(r.day, [...(days.get(r.day) ?? []), r]);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    total_requests: rows.reduce((n, r) => n + r.requests, 0),
    days: [...days.entries()].map(([date, group]) => {
      const by_route = merge(group);
      return { date, requests: by_route.reduce((n, g) => n + g.requests, 0), by_route };
    }),
  };
}
