/** Pages for signing up, verifying, logging in and recovering a password. */
import {
  Csrf,
  ErrorSummary,
  Field,
  type FieldErrors,
  type Frame,
  Layout,
  Notice,
} from "./layout.tsx";
import type { Child } from "hono/jsx";

/** Labels of the account fields (also used by the error summary). */
export const AUTH_LABELS: Record<string, string> = {
  email: "Email",
  password: "Password",
  full_name: "Full name",
  company_name: "Company",
  confirm: "Repeat the password",
  token: "Link",
};

/** What a form page shows again after a refused submission. */
export interface FormState {
  values?: Record<string, string>;
  errors?: FieldErrors;
  /** A problem with the whole submission (wrong password, too many attempts). */
  problem?: string;
}

/** Notices the login page shows after a redirect (a fixed set: nothing from the address). */
export const LOGIN_NOTICES = {
  verified: ["ok", "Your email address is confirmed and your Beta access is active. Log in."],
  password_reset: ["ok", "Your password was changed and every session was signed out. Log in."],
  logged_out: ["info", "You are logged out."],
  session_ended: ["info", "Your session ended. Log in again."],
} as const;

function AuthPage(props: { frame: Frame; title: string; lead?: Child; children: Child }) {
  return (
    <Layout frame={props.frame} title={props.title} section="auth" narrow>
      <h1>{props.title}</h1>
      {props.lead ? <p class="lead">{props.lead}</p> : null}
      {props.children}
    </Layout>
  );
}

/** The sign-up form. */
export function SignupPage(
  props: { frame: Frame; csrf: string; state?: FormState; beta: { days: number } },
) {
  const { values = {}, errors = {}, problem } = props.state ?? {};
  return (
    <AuthPage
      frame={props.frame}
      title="Create your developer account"
      lead={`Sign up, confirm your email, and you get ${props.beta.days} days of Beta access ` +
        "with an API key you create here."}
    >
      {problem ? <Notice kind="bad">{problem}</Notice> : null}
      <ErrorSummary errors={errors} labels={AUTH_LABELS} />
      <form class="card" method="post" action="/console/signup" novalidate>
        <Csrf token={props.csrf} />
        <Field
          name="email"
          label="Email"
          type="email"
          autocomplete="email"
          required
          value={values.email}
          error={errors.email}
          hint="We send a confirmation link to this address."
        />
        <Field
          name="password"
          label="Password"
          type="password"
          autocomplete="new-password"
          required
          minlength={12}
          maxlength={128}
          error={errors.password}
          hint="12 to 128 characters. Common passwords are refused."
        />
        <Field
          name="full_name"
          label="Full name"
          autocomplete="name"
          required
          maxlength={200}
          value={values.full_name}
          error={errors.full_name}
        />
        <Field
          name="company_name"
          label="Company"
          autocomplete="organization"
          required
          maxlength={200}
          value={values.company_name}
          error={errors.company_name}
        />
        <div class="actions">
          <button class="btn" type="submit">Create account</button>
          <a href="/console/login">I already have an account</a>
        </div>
      </form>
    </AuthPage>
  );
}

/** The log-in form. */
export function LoginPage(
  props: { frame: Frame; csrf: string; state?: FormState; notice?: keyof typeof LOGIN_NOTICES },
) {
  const { values = {}, errors = {}, problem } = props.state ?? {};
  const notice = props.notice ? LOGIN_NOTICES[props.notice] : null;
  return (
    <AuthPage frame={props.frame} title="Log in" lead="Manage your API keys, usage and feedback.">
      {notice ? <Notice kind={notice[0]}>{notice[1]}</Notice> : null}
      {problem ? <Notice kind="bad">{problem}</Notice> : null}
      <ErrorSummary errors={errors} labels={AUTH_LABELS} />
      <form class="card" method="post" action="/console/login" novalidate>
        <Csrf token={props.csrf} />
        <Field
          name="email"
          label="Email"
          type="email"
          autocomplete="username"
          required
          value={values.email}
          error={errors.email}
        />
        <Field
          name="password"
          label="Password"
          type="password"
          autocomplete="current-password"
          required
          error={errors.password}
        />
        <div class="actions">
          <button class="btn" type="submit">Log in</button>
          <a href="/console/forgot">Forgot your password?</a>
        </div>
      </form>
      <p>
        New here? <a href="/console/signup">Create an account</a>. No confirmation email?{" "}
        <a href="/console/resend">Send a new link</a>.
      </p>
    </AuthPage>
  );
}

/** One email field: forgot-password and resend-verification. */
export function EmailFormPage(props: {
  frame: Frame;
  csrf: string;
  action: "/console/forgot" | "/console/resend";
  state?: FormState;
}) {
  const forgot = props.action === "/console/forgot";
  const { values = {}, errors = {}, problem } = props.state ?? {};
  return (
    <AuthPage
      frame={props.frame}
      title={forgot ? "Reset your password" : "Send a new confirmation link"}
      lead={forgot
        ? "Enter your account's email. If it has an account, a one-time link (valid for 1 " +
          "hour) is sent to it."
        : "Enter the email you signed up with. If it is waiting for confirmation, a new link " +
          "is sent and earlier links stop working."}
    >
      {problem ? <Notice kind="bad">{problem}</Notice> : null}
      <ErrorSummary errors={errors} labels={AUTH_LABELS} />
      <form class="card" method="post" action={props.action} novalidate>
        <Csrf token={props.csrf} />
        <Field
          name="email"
          label="Email"
          type="email"
          autocomplete="email"
          required
          value={values.email}
          error={errors.email}
        />
        <div class="actions">
          <button class="btn" type="submit">{forgot ? "Send reset link" : "Send new link"}</button>
          <a href="/console/login">Back to log in</a>
        </div>
      </form>
    </AuthPage>
  );
}

const SENT = {
  signup: [
    "Check your email",
    "If this email can be registered, a confirmation link is on its way to it. Open it within " +
    "24 hours to activate your Beta access, then log in.",
  ],
  resend: [
    "Check your email",
    "If an account with this email is waiting for confirmation, a new link is on its way. " +
    "Earlier links stop working.",
  ],
  reset: [
    "Check your email",
    "If an account with this email exists, a one-time reset link (valid for 1 hour) is on its " +
    "way.",
  ],
} as const;

/** The page after any email-sending form: the same generic words whatever the email. */
export function SentPage(props: { frame: Frame; what: keyof typeof SENT }) {
  const [title, text] = SENT[props.what];
  return (
    <AuthPage frame={props.frame} title={title}>
      <Notice kind="info">{text}</Notice>
      <p>
        Nothing arrived after a few minutes? Look in your spam folder, or{" "}
        <a href={props.what === "reset" ? "/console/forgot" : "/console/resend"}>ask again</a>.
      </p>
      <p>
        <a href="/console/login">Go to log in</a>
      </p>
    </AuthPage>
  );
}

/**
 * The page a confirmation link opens. Confirming is a button (a POST), so a mail scanner that
 * fetches links cannot use the link up.
 */
export function VerifyPage(props: { frame: Frame; csrf: string; token: string }) {
  return (
    <AuthPage frame={props.frame} title="Confirm your email address">
      {props.token
        ? (
          <form class="card" method="post" action="/console/verify">
            <Csrf token={props.csrf} />
            <input type="hidden" name="token" value={props.token} />
            <p>One click confirms your address and activates your Beta access.</p>
            <div class="actions">
              <button class="btn" type="submit">Confirm my email</button>
            </div>
          </form>
        )
        : (
          <Notice kind="warn">
            Open the link from your confirmation email. No email?{" "}
            <a href="/console/resend">Send a new link</a>.
          </Notice>
        )}
    </AuthPage>
  );
}

/** The page a reset link opens: a new password, twice. */
export function ResetPage(props: { frame: Frame; csrf: string; token: string; state?: FormState }) {
  const { errors = {}, problem } = props.state ?? {};
  return (
    <AuthPage
      frame={props.frame}
      title="Choose a new password"
      lead="12 to 128 characters. Common passwords are refused. Every session of the account is signed out."
    >
      {problem ? <Notice kind="bad">{problem}</Notice> : null}
      <ErrorSummary errors={errors} labels={AUTH_LABELS} />
      {props.token
        ? (
          <form class="card" method="post" action="/console/reset" novalidate>
            <Csrf token={props.csrf} />
            <input type="hidden" name="token" value={props.token} />
            <Field
              name="password"
              label="New password"
              type="password"
              autocomplete="new-password"
              required
              minlength={12}
              maxlength={128}
              error={errors.password}
            />
            <Field
              name="confirm"
              label="Repeat the password"
              type="password"
              autocomplete="new-password"
              required
              error={errors.confirm}
            />
            <div class="actions">
              <button class="btn" type="submit">Change password</button>
            </div>
          </form>
        )
        : (
          <Notice kind="warn">
            Open the link from your reset email, or <a href="/console/forgot">ask for one</a>.
          </Notice>
        )}
    </AuthPage>
  );
}

/** A one-message page (a used link, an expired link, a refusal). */
export function MessagePage(props: {
  frame: Frame;
  title: string;
  kind: "ok" | "info" | "warn" | "bad";
  message: string;
  links?: [string, string][];
}) {
  return (
    <Layout
      frame={props.frame}
      title={props.title}
      section="auth"
      narrow={props.frame.viewer === null}
    >
      <h1>{props.title}</h1>
      <Notice kind={props.kind}>{props.message}</Notice>
      {props.links?.length
        ? (
          <ul>
            {props.links.map(([href, label]) => (
              <li>
                <a href={href}>{label}</a>
              </li>
            ))}
          </ul>
        )
        : null}
    </Layout>
  );
}
