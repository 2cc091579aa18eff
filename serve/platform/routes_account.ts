/** The six unauthenticated account routes plus login (spec 4.5, first rows). */
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createRouter, jsonBody, jsonResponse } from "../http/router.ts";
import { problemResponses } from "../http/errors.ts";
import type { PlatformContext } from "./context.ts";
import {
  AcceptedResponse,
  EmailRequest,
  LoginRequest,
  LoginResponse,
  RegisterRequest,
  RegisterResponse,
  ResetRequest,
  ResetResponse,
  VerifyQuery,
  VerifyRequest,
  VerifyResponse,
} from "./schemas.ts";
import {
  forgotPassword,
  guardAccountRequests,
  login,
  register,
  resendVerification,
  resetPassword,
  verifyEmail,
} from "./accounts.ts";

const TAG = ["Account"];

/** The client's address: the first X-Forwarded-For hop behind a trusted proxy, else the peer. */
export function clientAddress(c: Context, trustedHops: number): string {
  if (trustedHops > 0) {
    // Each of our proxies appends the address it saw; entries further left are the client's
    // own say and could be anything, so count from the right.
    const hops = (c.req.header("x-forwarded-for") ?? "").split(",").map((h) => h.trim());
    const seen = hops[hops.length - trustedHops];
    if (hops.length >= trustedHops && seen) return seen.slice(0, 64);
  }
  const info = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return info?.remoteAddr?.hostname ?? "unknown";
}

const registerRoute = createRoute({
  method: "post",
  path: "/api/v1/platform/register",
  security: [], // public: no credential
  tags: TAG,
  summary: "Register an account",
  description: "Always answers 200 pending_verification, whether or not the email is taken, " +
    "in about the same time. A verification email (link valid 24 h) is sent only when a new " +
    "account is created.",
  request: jsonBody(RegisterRequest),
  responses: {
    200: jsonResponse(RegisterResponse, "Registration accepted."),
    ...problemResponses(422, 429, 503),
  },
});

const loginRoute = createRoute({
  method: "post",
  path: "/api/v1/platform/login",
  security: [], // public: no credential
  tags: TAG,
  summary: "Log in for a management token",
  description: "Returns a management token (JWT, 15 minutes by default) for a verified " +
    "account with the right password. Every failure is the same 401. After 5 failures for " +
    "one email or 20 from one client address within 15 minutes, attempts are refused with 429 " +
    "and Retry-After for 30 s, doubling per further failure up to 15 minutes, known email " +
    "or not.",
  request: jsonBody(LoginRequest),
  responses: {
    200: jsonResponse(LoginResponse, "Logged in."),
    ...problemResponses(401, 422, 429, 503),
  },
});

const verifyGet = createRoute({
  method: "get",
  path: "/api/v1/platform/verify-email",
  security: [], // public: no credential
  tags: TAG,
  summary: "Verify an email address (link form)",
  description: "200 with status verified (Beta access provisioned when no active or trial " +
    "contract exists), invalid_token (unknown, forged or already used) or expired_token.",
  request: { query: VerifyQuery },
  responses: {
    200: jsonResponse(VerifyResponse, "Verification outcome."),
    ...problemResponses(422),
  },
});

const verifyPost = createRoute({
  method: "post",
  path: "/api/v1/platform/verify-email",
  security: [], // public: no credential
  tags: TAG,
  summary: "Verify an email address (compatibility form)",
  description: "As the GET form; the token must belong to the given email.",
  request: jsonBody(VerifyRequest),
  responses: {
    200: jsonResponse(VerifyResponse, "Verification outcome."),
    ...problemResponses(422),
  },
});

const resendRoute = createRoute({
  method: "post",
  path: "/api/v1/platform/resend-verification",
  security: [], // public: no credential
  tags: TAG,
  summary: "Send a new verification link",
  description: "Same answer for every email. A pending account gets a new link (earlier " +
    "ones stop working), at most one per minute.",
  request: jsonBody(EmailRequest),
  responses: { 200: jsonResponse(AcceptedResponse, "Accepted."), ...problemResponses(422, 429) },
});

const forgotRoute = createRoute({
  method: "post",
  path: "/api/v1/platform/forgot-password",
  security: [], // public: no credential
  tags: TAG,
  summary: "Send a one-time password reset link",
  description: "Same answer for every email. An existing account gets a link valid for 1 " +
    "hour, at most one per minute.",
  request: jsonBody(EmailRequest),
  responses: { 200: jsonResponse(AcceptedResponse, "Accepted."), ...problemResponses(422, 429) },
});

const resetRoute = createRoute({
  method: "post",
  path: "/api/v1/platform/reset-password",
  security: [], // public: no credential
  tags: TAG,
  summary: "Choose a new password with a reset token",
  description: "200 password_reset on success: every outstanding reset token and every " +
    "management token issued before it stop working, and a notice is emailed. A bad or used " +
    "token is 200 invalid_token, an old one 200 expired_token (as verify-email does).",
  request: jsonBody(ResetRequest),
  responses: {
    200: jsonResponse(ResetResponse, "Reset outcome."),
    ...problemResponses(422, 429, 503),
  },
});

/** The account routes that need no credentials. */
export function accountRoutes(ctx: PlatformContext) {
  const router = createRouter();
  const guard = (c: Context) =>
    guardAccountRequests(ctx, clientAddress(c, ctx.settings.trustedProxyHops));
  router.openapi(registerRoute, async (c) => {
    await guard(c);
    return c.json(await register(ctx, c.req.valid("json")), 200);
  });
  router.openapi(loginRoute, async (c) => {
    const { email, password } = c.req.valid("json");
    const address = clientAddress(c, ctx.settings.trustedProxyHops);
    return c.json(await login(ctx, email, password, address), 200);
  });
  router.openapi(
    verifyGet,
    async (c) => c.json(await verifyEmail(ctx, c.req.valid("query").token), 200),
  );
  router.openapi(verifyPost, async (c) => {
    const { email, token } = c.req.valid("json");
    return c.json(await verifyEmail(ctx, token, email), 200);
  });
  router.openapi(resendRoute, async (c) => {
    await guard(c);
    return c.json(await resendVerification(ctx, c.req.valid("json").email), 200);
  });
  router.openapi(forgotRoute, async (c) => {
    await guard(c);
    return c.json(await forgotPassword(ctx, c.req.valid("json").email), 200);
  });
  router.openapi(resetRoute, async (c) => {
    await guard(c);
    const { token, new_password } = c.req.valid("json");
    return c.json(await resetPassword(ctx, token, new_password), 200);
  });
  return router;
}
