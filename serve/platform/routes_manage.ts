/** Routes that need a management token: keys, usage, contracts, rate-limit status, feedback. */
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, jsonBody, jsonResponse } from "../http/router.ts";
import { ApiError, problemResponses } from "../http/errors.ts";
import { managementAuth } from "./auth.ts";
import { IDEMPOTENCY_DOC } from "../http/idempotency.ts";
import type { PlatformContext } from "./context.ts";
import {
  ApiKey,
  Contract,
  CreatedKey,
  CreateKeyRequest,
  Feedback,
  FeedbackIdParam,
  FeedbackRequest,
  KeyRefParam,
  RateLimitStatus,
  RevokeKeyRequest,
  UsageHistory,
  UsagePeriod,
} from "./schemas.ts";
import { createKey, getKey, listKeys, revokeKey } from "./api_keys.ts";
import { contractView, currentContract, listContracts } from "./contracts.ts";
import { usageHistory, usagePeriod } from "./usage.ts";
import { createFeedback, getFeedback, listFeedback } from "./feedback.ts";

const AUTH_ERRORS = [401, 403] as const;

/** The management-token routes. */
export function managementRoutes(ctx: PlatformContext) {
  const auth = managementAuth({ db: ctx.db, jwtSecret: ctx.keys.jwtSecret, clock: ctx.clock });
  // Creating POSTs take an Idempotency-Key, scoped by the authenticated account.
  const once = [auth, ctx.idempotent];
  const managed = <P extends string, M extends "get" | "post">(
    method: M,
    path: P,
    tag: string,
    summary: string,
    description: string,
  ) => ({
    method,
    path,
    tags: [tag],
    summary,
    description,
    security: [{ managementToken: [] }],
    middleware: auth,
  });

  const router = createRouter();

  router.openapi(
    createRoute({
      ...managed(
        "post",
        "/api/v1/platform/api-keys/create",
        "Keys",
        "Create a runtime API key",
        "Bound to the contract in force. The raw key is in this response only; it is stored " +
          "as a SHA-256 hash. 403 when there is no contract in force or an entitlement is " +
          "not in it; 409 when a live key has the name. " + IDEMPOTENCY_DOC,
      ),
      middleware: once,
      request: jsonBody(CreateKeyRequest),
      responses: {
        200: jsonResponse(CreatedKey, "The new key."),
        ...problemResponses(...AUTH_ERRORS, 409, 422),
      },
    }),
    async (c) => {
      const created = await createKey(
        ctx.db,
        c.get("account").accountId,
        c.req.valid("json"),
        ctx.clock(),
      );
      return c.json(
        { ...created, message: "Store this key now: it will not be shown again." },
        200,
      );
    },
  );

  router.openapi(
    createRoute({
      ...managed(
        "post",
        "/api/v1/platform/api-keys/revoke",
        "Keys",
        "Revoke a runtime API key",
        "Final. The revoking instance refuses the key at once; other instances within " +
          "KEY_CACHE_TTL_MS (5 s by default). Revoking a revoked key is a no-op.",
      ),
      request: jsonBody(RevokeKeyRequest),
      responses: {
        200: jsonResponse(ApiKey, "The revoked key."),
        ...problemResponses(...AUTH_ERRORS, 404, 422),
      },
    }),
    async (c) => {
      const { key_ref, key_id } = c.req.valid("json");
      const ref = key_ref ?? String(key_id);
      return c.json(
        await revokeKey(ctx.db, ctx.keyStore, c.get("account").accountId, ref, ctx.clock()),
        200,
      );
    },
  );

  router.openapi(
    createRoute({
      ...managed("get", "/api/v1/platform/api-keys", "Keys", "List keys", "Metadata only."),
      responses: {
        200: jsonResponse(z.array(ApiKey), "Keys, newest first."),
        ...problemResponses(401, 403),
      },
    }),
    async (c) => c.json(await listKeys(ctx.db, c.get("account").accountId), 200),
  );

  router.openapi(
    createRoute({
      ...managed(
        "get",
        "/api/v1/platform/api-keys/{key_ref}",
        "Keys",
        "Get one key",
        "By numeric key id (legacy) or name; a name picks the live key, else the newest " +
          "revoked one. Metadata only.",
      ),
      request: { params: KeyRefParam },
      responses: {
        200: jsonResponse(ApiKey, "The key."),
        ...problemResponses(...AUTH_ERRORS, 404, 422),
      },
    }),
    async (c) =>
      c.json(
        await getKey(ctx.db, c.get("account").accountId, c.req.valid("param").key_ref),
        200,
      ),
  );

  router.openapi(
    createRoute({
      ...managed(
        "get",
        "/api/v1/platform/usage",
        "Usage",
        "Usage history",
        "Metered runtime requests per UTC day over the last 30 days, by route and status. " +
          "Requests appear within about a second (USAGE_FLUSH_MS).",
      ),
      responses: { 200: jsonResponse(UsageHistory, "History."), ...problemResponses(401, 403) },
    }),
    async (c) => {
      await ctx.meter.flush();
      return c.json(
        await usageHistory(ctx.db, c.get("account").accountId, ctx.clock()),
        200,
      );
    },
  );

  for (const period of ["daily", "monthly"] as const) {
    router.openapi(
      createRoute({
        ...managed(
          "get",
          `/api/v1/platform/usage/${period}`,
          "Usage",
          period === "daily" ? "Usage of the current UTC day" : "Usage of the current UTC month",
          "By route and status.",
        ),
        responses: { 200: jsonResponse(UsagePeriod, "Usage."), ...problemResponses(401, 403) },
      }),
      async (c) => {
        await ctx.meter.flush();
        const span = period === "daily" ? "day" : "month";
        return c.json(
          await usagePeriod(ctx.db, c.get("account").accountId, span, ctx.clock()),
          200,
        );
      },
    );
  }

  router.openapi(
    createRoute({
      ...managed(
        "get",
        "/api/v1/platform/contracts",
        "Contracts",
        "List contracts",
        "Newest first.",
      ),
      responses: {
        200: jsonResponse(z.array(Contract), "Contracts."),
        ...problemResponses(401, 403),
      },
    }),
    async (c) => {
      const now = ctx.clock();
      const rows = await listContracts(ctx.db, c.get("account").accountId);
      return c.json(rows.map((row) => contractView(row, now)), 200);
    },
  );

  const inForce = async (accountId: string) => {
    const contract = await currentContract(ctx.db, accountId, ctx.clock());
    if (!contract) throw new ApiError("not_found", "the account has no active or trial contract");
    return contract;
  };

  router.openapi(
    createRoute({
      ...managed(
        "get",
        "/api/v1/platform/contracts/current",
        "Contracts",
        "The contract in force",
        "404 when no active or trial contract is in force.",
      ),
      responses: { 200: jsonResponse(Contract, "Contract."), ...problemResponses(401, 403, 404) },
    }),
    async (c) => c.json(contractView(await inForce(c.get("account").accountId), ctx.clock()), 200),
  );

  router.openapi(
    createRoute({
      ...managed(
        "get",
        "/api/v1/platform/rate-limit-status",
        "Contracts",
        "Rate-limit, quota and concurrency status",
        "The numbers enforcement uses, read from the shared counters: requests this UTC " +
          "minute and month, and concurrent requests in flight. Allowance an instance has " +
          "claimed but not yet spent counts as used. 404 when no contract is in force.",
      ),
      responses: {
        200: jsonResponse(RateLimitStatus, "Status."),
        ...problemResponses(401, 403, 404),
      },
    }),
    async (c) => {
      const contract = await inForce(c.get("account").accountId);
      const status = await ctx.limits.status(contract);
      const window = (w: typeof status.minute) => ({
        limit: w.limit,
        used: w.used,
        remaining: w.remaining,
        window_start: w.window_start.toISOString(),
        resets_at: w.resets_at.toISOString(),
      });
      const view = contractView(contract, ctx.clock());
      return c.json({
        contract_id: view.contract_id,
        plan: view.plan,
        status: view.status,
        rate: window(status.minute),
        quota: window(status.month),
        concurrency: status.concurrency,
      }, 200);
    },
  );

  router.openapi(
    createRoute({
      ...managed(
        "get",
        "/api/v1/platform/feedback",
        "Feedback",
        "List own feedback",
        "Newest first.",
      ),
      responses: {
        200: jsonResponse(z.array(Feedback), "Feedback."),
        ...problemResponses(401, 403),
      },
    }),
    async (c) => c.json(await listFeedback(ctx.db, c.get("account").accountId), 200),
  );

  router.openapi(
    createRoute({
      ...managed(
        "post",
        "/api/v1/platform/feedback",
        "Feedback",
        "Send feedback",
        "Management token only; runtime API keys are refused with 403. " + IDEMPOTENCY_DOC,
      ),
      middleware: once,
      request: jsonBody(FeedbackRequest),
      responses: {
        200: jsonResponse(Feedback, "Stored."),
        ...problemResponses(...AUTH_ERRORS, 422),
      },
    }),
    async (c) =>
      c.json(
        await createFeedback(ctx.db, c.get("account").accountId, c.req.valid("json"), ctx.clock()),
        200,
      ),
  );

  router.openapi(
    createRoute({
      ...managed(
        "get",
        "/api/v1/platform/feedback/{feedback_id}",
        "Feedback",
        "Get own feedback",
        "Another account's id is 404.",
      ),
      request: { params: FeedbackIdParam },
      responses: {
        200: jsonResponse(Feedback, "Feedback."),
        ...problemResponses(...AUTH_ERRORS, 404, 422),
      },
    }),
    async (c) =>
      c.json(
        await getFeedback(ctx.db, c.get("account").accountId, c.req.valid("param").feedback_id),
        200,
      ),
  );

  return router;
}
