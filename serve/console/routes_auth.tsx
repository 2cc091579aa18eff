/**
 * Console pages before signing in: sign up, confirm, log in and out, forgot and reset. They
 * keep the API's promises: the same answer (and redirect) whatever the email, the same
 * throttles (login throttle, account requests per address, the password gate), and the
 * platform's own functions do the work, so timing matches the API's.
 */
import { Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import { z } from "zod";
import { ApiError } from "../http/errors.ts";
import { clientAddress } from "../platform/routes_account.ts";
import {
  authenticate,
  forgotPassword,
  guardAccountRequests,
  register,
  resendVerification,
  resetPassword,
  verifyEmail,
} from "../platform/accounts.ts";
import { EmailRequest, LoginRequest, RegisterRequest, ResetRequest } from "../platform/schemas.ts";
import {
  type ConsoleDeps,
  type ConsoleEnv,
  fieldErrors,
  formText,
  frameOf,
  PageError,
} from "./context.ts";
import { checkedForm, loadSession, preSession, signedIn } from "./guard.ts";
import {
  cookieNames,
  createSession,
  endSession,
  SESSION_LIFETIME_MS,
  setConsoleCookie,
} from "./session.ts";
import { page } from "./render.ts";
import {
  EmailFormPage,
  LOGIN_NOTICES,
  LoginPage,
  MessagePage,
  ResetPage,
  SentPage,
  SignupPage,
  VerifyPage,
} from "./pages/auth.tsx";

const TOKEN = z.string().min(10).max(4096);

/** Turns the throttles' and the password gate's refusals into the page's status and words. */
function refusal(error: unknown): { status: 429 | 503; problem: string; retry?: string } | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === "rate_limited") {
    return {
      status: 429,
      problem: `Too many attempts from here; wait ${
        error.headers["retry-after"] ?? "a few"
      } seconds and try again.`,
      retry: error.headers["retry-after"],
    };
  }
  if (error.code === "overloaded") {
    return { status: 503, problem: "The server is busy; try again in a moment.", retry: "1" };
  }
  return null;
}

/** The routes of the pages before signing in (and log-out). */
export function authRoutes(deps: ConsoleDeps) {
  const ctx = deps.platform;
  const app = new Hono<ConsoleEnv>();
  const pre = preSession(ctx);
  const address = (c: Parameters<typeof clientAddress>[0]) =>
    clientAddress(c, ctx.settings.trustedProxyHops);
  const beta = { days: ctx.settings.beta.days };

  app.get("/console", async (c) => {
    return c.redirect(await loadSession(ctx, c) ? "/console/keys" : "/console/login", 303);
  });

  app.get("/console/signup", pre, async (c) => {
    if (await loadSession(ctx, c)) return c.redirect("/console/keys", 303);
    return page(c, <SignupPage frame={frameOf(c)} csrf={c.get("csrf")} beta={beta} />);
  });
  app.post("/console/signup", pre, async (c) => {
    const body = await checkedForm(ctx, c);
    const input = {
      email: formText(body, "email"),
      password: formText(body, "password"),
      full_name: formText(body, "full_name"),
      company_name: formText(body, "company_name"),
    };
    const parsed = RegisterRequest.safeParse(input);
    const render = (status: 422 | 429 | 503, state: Parameters<typeof SignupPage>[0]["state"]) =>
      page(
        c,
        <SignupPage frame={frameOf(c)} csrf={c.get("csrf")} beta={beta} state={state} />,
        status,
      );
    if (!parsed.success) {
      const errors = fieldErrors(parsed.error);
      const values: Record<string, string> = {};
      for (const name of ["email", "full_name", "company_name"] as const) {
        if (!errors[name]) values[name] = input[name].trim();
      }
      return render(422, { errors, values });
    }
    try {
      await guardAccountRequests(ctx, address(c));
      await register(ctx, parsed.data);
    } catch (error) {
      const refused = refusal(error);
      if (!refused) throw error;
      if (refused.retry) c.header("retry-after", refused.retry);
      return render(refused.status, { problem: refused.problem });
    }
    return c.redirect("/console/sent/signup", 303);
  });

  for (const what of ["signup", "resend", "reset"] as const) {
    app.get(`/console/sent/${what}`, (c) => page(c, <SentPage frame={frameOf(c)} what={what} />));
  }

  app.get("/console/verify", pre, (c) => {
    const token = TOKEN.safeParse(c.req.query("token") ?? "");
    return page(
      c,
      <VerifyPage
        frame={frameOf(c)}
        csrf={c.get("csrf")}
        token={token.success ? token.data : ""}
      />,
    );
  });
  app.post("/console/verify", pre, async (c) => {
    const body = await checkedForm(ctx, c);
    const token = TOKEN.safeParse(formText(body, "token"));
    const result = token.success ? await verifyEmail(ctx, token.data) : { status: "invalid_token" };
    if (result.status === "verified") return c.redirect("/console/login?notice=verified", 303);
    return page(
      c,
      <MessagePage
        frame={frameOf(c)}
        title="This link cannot be used"
        kind="bad"
        message={result.status === "expired_token"
          ? "This confirmation link has expired (links last 24 hours)."
          : "This confirmation link is not valid: it was already used, or a newer one was sent."}
        links={[["/console/resend", "Send a new link"], ["/console/login", "Log in"]]}
      />,
      400,
    );
  });

  app.get("/console/login", pre, async (c) => {
    if (await loadSession(ctx, c)) return c.redirect("/console/keys", 303);
    const notice = c.req.query("notice");
    const known = notice && Object.hasOwn(LOGIN_NOTICES, notice)
      ? notice as keyof typeof LOGIN_NOTICES
      : undefined;
    return page(c, <LoginPage frame={frameOf(c)} csrf={c.get("csrf")} notice={known} />);
  });
  app.post("/console/login", pre, async (c) => {
    const body = await checkedForm(ctx, c);
    const parsed = LoginRequest.safeParse({
      email: formText(body, "email"),
      password: formText(body, "password"),
    });
    const render = (
      status: 401 | 422 | 429 | 503,
      state: Parameters<typeof LoginPage>[0]["state"],
    ) => page(c, <LoginPage frame={frameOf(c)} csrf={c.get("csrf")} state={state} />, status);
    if (!parsed.success) return render(422, { errors: fieldErrors(parsed.error) });
    let account;
    try {
      account = await authenticate(ctx, parsed.data.email, parsed.data.password, address(c));
    } catch (error) {
      const values = { email: parsed.data.email };
      if (error instanceof ApiError && error.code === "unauthorized") {
        return render(401, {
          values,
          problem: "The email or password is wrong, or the email is not confirmed yet.",
        });
      }
      const refused = refusal(error);
      if (!refused) throw error;
      if (refused.retry) c.header("retry-after", refused.retry);
      return render(refused.status, { values, problem: refused.problem });
    }
    const id = await createSession(ctx.db, account, ctx.clock());
    const secure = c.get("secure");
    setConsoleCookie(c, cookieNames(secure).session, id, secure, SESSION_LIFETIME_MS / 1000);
    return c.redirect("/console/keys", 303);
  });

  app.post("/console/logout", signedIn(ctx), async (c) => {
    await checkedForm(ctx, c);
    await endSession(ctx, c.get("session")!.idHash);
    const secure = c.get("secure");
    deleteCookie(c, cookieNames(secure).session, { path: "/", secure });
    return c.redirect("/console/login?notice=logged_out", 303);
  });

  for (const action of ["/console/forgot", "/console/resend"] as const) {
    const forgot = action === "/console/forgot";
    app.get(
      action,
      pre,
      (c) => page(c, <EmailFormPage frame={frameOf(c)} csrf={c.get("csrf")} action={action} />),
    );
    app.post(action, pre, async (c) => {
      const body = await checkedForm(ctx, c);
      const parsed = EmailRequest.safeParse({ email: formText(body, "email") });
      const render = (
        status: 422 | 429 | 503,
        state: Parameters<typeof EmailFormPage>[0]["state"],
      ) =>
        page(
          c,
          <EmailFormPage frame={frameOf(c)} csrf={c.get("csrf")} action={action} state={state} />,
          status,
        );
      if (!parsed.success) return render(422, { errors: fieldErrors(parsed.error) });
      try {
        await guardAccountRequests(ctx, address(c));
        if (forgot) await forgotPassword(ctx, parsed.data.email);
        else await resendVerification(ctx, parsed.data.email);
      } catch (error) {
        const refused = refusal(error);
        if (!refused) throw error;
        if (refused.retry) c.header("retry-after", refused.retry);
        return render(refused.status, {
          values: { email: parsed.data.email },
          problem: refused.problem,
        });
      }
      return c.redirect(forgot ? "/console/sent/reset" : "/console/sent/resend", 303);
    });
  }

  app.get("/console/reset", pre, (c) => {
    const token = TOKEN.safeParse(c.req.query("token") ?? "");
    return page(
      c,
      <ResetPage frame={frameOf(c)} csrf={c.get("csrf")} token={token.success ? token.data : ""} />,
    );
  });
  app.post("/console/reset", pre, async (c) => {
    const body = await checkedForm(ctx, c);
    const token = formText(body, "token");
    const password = formText(body, "password");
    const render = (
      status: 400 | 422 | 429 | 503,
      state: Parameters<typeof ResetPage>[0]["state"],
    ) =>
      page(
        c,
        <ResetPage
          frame={frameOf(c)}
          csrf={c.get("csrf")}
          token={TOKEN.safeParse(token).success ? token : ""}
          state={state}
        />,
        status,
      );
    const parsed = ResetRequest.safeParse({ token, new_password: password });
    const errors = parsed.success ? {} : fieldErrors(parsed.error);
    const fields: Record<string, string> = {};
    if (errors.new_password) fields.password = errors.new_password;
    if (password !== formText(body, "confirm")) fields.confirm = "The two passwords differ";
    if (Object.keys(fields).length > 0) return render(422, { errors: fields });
    if (!parsed.success) {
      throw new PageError(400, "This reset link is not valid. Ask for a new one.");
    }
    let result;
    try {
      await guardAccountRequests(ctx, address(c));
      result = await resetPassword(ctx, parsed.data.token, parsed.data.new_password);
    } catch (error) {
      if (error instanceof ApiError && error.code === "validation_failed") {
        const issues = error.extra.errors as { msg: string }[] | undefined;
        return render(422, { errors: { password: issues?.[0]?.msg ?? "Choose another password" } });
      }
      const refused = refusal(error);
      if (!refused) throw error;
      if (refused.retry) c.header("retry-after", refused.retry);
      return render(refused.status, { problem: refused.problem });
    }
    if (result.status === "password_reset") {
      const secure = c.get("secure");
      deleteCookie(c, cookieNames(secure).session, { path: "/", secure });
      return c.redirect("/console/login?notice=password_reset", 303);
    }
    return page(
      c,
      <MessagePage
        frame={frameOf(c)}
        title="This link cannot be used"
        kind="bad"
        message={result.status === "expired_token"
          ? "This reset link has expired (links last 1 hour)."
          : "This reset link is not valid: it was already used, or a newer one was sent."}
        links={[["/console/forgot", "Ask for a new link"]]}
      />,
      400,
    );
  });

  return app;
}
