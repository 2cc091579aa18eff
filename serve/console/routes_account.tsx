/**
 * Console pages of a signed-in account: keys (create, shown once, revoke with confirmation),
 * usage, try-it and feedback. They call the platform's own functions with the session's
 * account, so they answer exactly what the management API would.
 */
import { Hono } from "hono";
import { ApiError } from "../http/errors.ts";
import { createKey, getKey, revokeKey } from "../platform/api_keys.ts";
import { createFeedback, FEEDBACK_CATEGORIES } from "../platform/feedback.ts";
import { CreateKeyRequest, FeedbackRequest } from "../platform/schemas.ts";
import { openText, sealText } from "../platform/secrets.ts";
import {
  type ConsoleContext,
  type ConsoleDeps,
  type ConsoleEnv,
  fieldErrors,
  formText,
  frameOf,
  PageError,
} from "./context.ts";
import { checkedForm, signedIn } from "./guard.ts";
import { putFlash, takeFlash } from "./session.ts";
import { page } from "./render.ts";
import {
  accountContract,
  accountFeedback,
  accountKeys,
  accountUsage,
  forgetFeedback,
  forgetKeys,
  type UsageFigures,
} from "./account_data.ts";
import { KEY_NOTICES, KeysPage, RevokePage } from "./pages/keys.tsx";
import { type RouteCount, UsagePage, type UsageView } from "./pages/usage.tsx";
import { TryPage } from "./pages/try.tsx";
import { FeedbackPage } from "./pages/feedback.tsx";

const KEY_ID = /^\d{1,18}$/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** The routes of a signed-in account's pages. */
export function accountRoutes(deps: ConsoleDeps) {
  const ctx = deps.platform;
  const app = new Hono<ConsoleEnv>();
  const account = (c: ConsoleContext) => c.get("session")!.accountId;
  app.use("/console/keys", signedIn(ctx));
  app.use("/console/keys/*", signedIn(ctx));
  for (const path of ["/console/usage", "/console/try", "/console/feedback"]) {
    app.use(path, signedIn(ctx));
  }

  const keysPage = async (
    c: ConsoleContext,
    status: 200 | 403 | 409 | 422 = 200,
    state?: Parameters<typeof KeysPage>[0]["state"],
  ) => {
    const session = c.get("session")!;
    // The raw key of a key just created: kept with the session by whichever instance created
    // it, so after a creation (notice=created) it is read from the database, never from memory.
    const sealed = session.flash || c.req.query("notice") === "created"
      ? await takeFlash(ctx, session.idHash)
      : null;
    const created = sealed
      ? JSON.parse(await openText(ctx.keys.consoleFlashKey, sealed)) as {
        key: string;
        name: string;
      }
      : null;
    const [keys, contract] = await Promise.all([
      accountKeys(ctx, session.accountId),
      accountContract(ctx, session.accountId, ctx.clock()),
    ]);
    const notice = c.req.query("notice");
    return page(
      c,
      <KeysPage
        frame={frameOf(c)}
        keys={keys}
        created={created}
        contract={contract ? { entitlements: [...contract.entitlements].sort() } : null}
        notice={notice === "revoked" && !created ? notice as keyof typeof KEY_NOTICES : undefined}
        state={state}
      />,
      status,
    );
  };

  app.get("/console/keys", (c) => keysPage(c));
  app.post("/console/keys", async (c) => {
    const body = await checkedForm(ctx, c);
    const picked = [body.entitlements ?? []].flat().filter((v) => typeof v === "string");
    const input = {
      name: formText(body, "name").trim(),
      entitlements: formText(body, "entitlements_shown") === "1" ? picked : undefined,
    };
    const parsed = CreateKeyRequest.safeParse(input);
    if (!parsed.success) {
      return keysPage(c, 422, { errors: fieldErrors(parsed.error), name: input.name });
    }
    let created;
    try {
      created = await createKey(ctx.db, account(c), parsed.data, ctx.clock());
    } catch (error) {
      if (error instanceof ApiError && error.code === "conflict") {
        return keysPage(c, 409, { errors: { name: "An active key already has this name" } });
      }
      if (error instanceof ApiError && error.code === "forbidden") {
        return keysPage(c, 403, { problem: error.detail, name: parsed.data.name });
      }
      throw error;
    }
    const sealed = await sealText(
      ctx.keys.consoleFlashKey,
      JSON.stringify({ key: created.key, name: created.name }),
    );
    forgetKeys(ctx, account(c));
    await putFlash(ctx, c.get("session")!.idHash, sealed);
    return c.redirect("/console/keys?notice=created#new-key", 303);
  });

  const keyOf = async (c: ConsoleContext) => {
    const id = c.req.param("id") ?? "";
    if (!KEY_ID.test(id)) throw new PageError(404, "There is no such key.");
    try {
      return await getKey(ctx.db, account(c), id);
    } catch (error) {
      if (error instanceof ApiError && error.code === "not_found") {
        throw new PageError(404, "This account has no such key.");
      }
      throw error;
    }
  };
  app.get("/console/keys/:id/revoke", async (c) => {
    const key = await keyOf(c);
    if (key.status === "revoked") return c.redirect("/console/keys", 303);
    return page(c, <RevokePage frame={frameOf(c)} apiKey={key} />);
  });
  app.post("/console/keys/:id/revoke", async (c) => {
    await checkedForm(ctx, c);
    const key = await keyOf(c);
    try {
      await revokeKey(ctx.db, ctx.keyStore, account(c), String(key.key_id), ctx.clock());
    } finally {
      forgetKeys(ctx, account(c));
    }
    return c.redirect("/console/keys?notice=revoked", 303);
  });

  app.get("/console/usage", async (c) => {
    const { history, contract, status } = await accountUsage(ctx, account(c), ctx.clock());
    return page(
      c,
      <UsagePage frame={frameOf(c)} usage={usageView(history, contract, status)} />,
    );
  });

  app.get("/console/try", (c) => page(c, <TryPage frame={frameOf(c)} />));

  const feedbackPage = async (
    c: ConsoleContext,
    status: 200 | 422 = 200,
    extra: Partial<Parameters<typeof FeedbackPage>[0]> = {},
  ) => {
    const related = c.req.query("related_request_id") ?? "";
    return page(
      c,
      <FeedbackPage
        frame={frameOf(c)}
        categories={FEEDBACK_CATEGORIES}
        rows={await accountFeedback(ctx, account(c))}
        sent={c.req.query("notice") === "sent"}
        values={{ related_request_id: REQUEST_ID.test(related) ? related : undefined }}
        {...extra}
      />,
      status,
    );
  };
  app.get("/console/feedback", (c) => feedbackPage(c));
  app.post("/console/feedback", async (c) => {
    const body = await checkedForm(ctx, c);
    const rating = formText(body, "rating");
    const related = formText(body, "related_request_id").trim();
    const parsed = FeedbackRequest.safeParse({
      category: formText(body, "category") || undefined,
      message: formText(body, "message"),
      rating: rating === "" ? undefined : Number(rating),
      related_request_id: related === "" ? undefined : related,
    });
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      const category = formText(body, "category");
      return feedbackPage(c, 422, {
        errors,
        values: {
          category: FEEDBACK_CATEGORIES.includes(category as never) ? category : undefined,
          rating: errors.rating ? undefined : rating,
          related_request_id: errors.related_request_id ? undefined : related,
        },
      });
    }
    try {
      await createFeedback(ctx.db, account(c), parsed.data, ctx.clock());
    } finally {
      forgetFeedback(ctx, account(c));
    }
    return c.redirect("/console/feedback?notice=sent", 303);
  });

  return app;
}

/** The usage page's view: every one of the 30 days (zeros included) and the route totals. */
function usageView(
  history: UsageFigures["history"],
  contract: UsageFigures["contract"],
  status: UsageFigures["status"],
): UsageView {
  const counts = new Map(history.days.map((d) => [d.date, d.requests]));
  const days = [];
  for (
    let t = new Date(history.from).getTime();
    t < new Date(history.to).getTime();
    t += 86_400_000
  ) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.push({ date, requests: counts.get(date) ?? 0 });
  }
  const routes = new Map<string, RouteCount & { total: number }>();
  for (const day of history.days) {
    for (const r of day.by_route) {
      const key = `${r.route} ${r.method} ${r.status}`;
      const g = routes.get(key) ?? { ...r, requests: 0, total: 0 };
      g.requests += r.requests;
      g.total += r.avg_duration_ms * r.requests;
      routes.set(key, g);
    }
  }
  const byRoute = [...routes.values()].map(({ total, ...g }) => ({
    ...g,
    avg_duration_ms: total / Math.max(1, g.requests),
  })).sort((a, b) => b.requests - a.requests || a.route.localeCompare(b.route));
  return {
    days,
    byRoute,
    total: history.total_requests,
    month: status
      ? {
        used: status.month.used,
        limit: status.month.limit,
        resets_at: status.month.resets_at.toISOString(),
      }
      : null,
    minute: status ? { used: status.minute.used, limit: status.minute.limit } : null,
    concurrency: status?.concurrency ?? null,
    contract: contract
      ? {
        plan: contract.plan,
        status: contract.status,
        ends_at: contract.ends_at?.toISOString() ?? null,
      }
      : null,
  };
}
