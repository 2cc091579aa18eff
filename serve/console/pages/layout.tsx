/** The page frame every console page shares, and the form parts the pages are built from. */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { CONSOLE_CSS } from "../style.ts";

/** The signed-in person, for the navigation bar and its log-out form. */
export interface Viewer {
  email: string;
  csrf: string;
}

/** What every page gets: its title, the response's CSP nonce, and who is signed in. */
export interface Frame {
  nonce: string;
  viewer: Viewer | null;
}

const NAV = [
  ["keys", "/console/keys", "API keys"],
  ["usage", "/console/usage", "Usage"],
  ["try", "/console/try", "Try it"],
  ["feedback", "/console/feedback", "Feedback"],
] as const;

/** The section of the console a page belongs to (highlighted in the navigation). */
export type Section = typeof NAV[number][0] | "auth";

/** The whole document: skip link, top bar, main landmark, footer, optional inline module. */
export function Layout(props: {
  frame: Frame;
  title: string;
  section: Section;
  narrow?: boolean;
  script?: string;
  children: Child;
}) {
  const { frame } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>{`${props.title} · Occupation Intelligence console`}</title>
        <link rel="icon" href="/console/favicon.svg" type="image/svg+xml" />
        <style nonce={frame.nonce}>{raw(CONSOLE_CSS)}</style>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <div class="bar">
            <a class="brand" href="/console">
              Occupation Intelligence <span>Developer console</span>
            </a>
            {frame.viewer
              ? (
                <nav aria-label="Console">
                  <ul>
                    {NAV.map(([key, href, label]) => (
                      <li>
                        <a href={href} aria-current={props.section === key ? "page" : undefined}>
                          {label}
                        </a>
                      </li>
                    ))}
                    <li class="who">{frame.viewer.email}</li>
                    <li>
                      <form method="post" action="/console/logout">
                        <input type="hidden" name="_csrf" value={frame.viewer.csrf} />
                        <button class="linkish" type="submit">Log out</button>
                      </form>
                    </li>
                  </ul>
                </nav>
              )
              : (
                <nav aria-label="Account">
                  <ul>
                    <li>
                      <a href="/console/login">Log in</a>
                    </li>
                    <li>
                      <a href="/console/signup">Sign up</a>
                    </li>
                  </ul>
                </nav>
              )}
          </div>
        </header>
        <main id="main" tabindex={-1} class={props.narrow ? "narrow" : undefined}>
          {props.children}
        </main>
        <footer>
          <p>
            API reference: <a href="/docs">/docs</a> · OpenAPI:{" "}
            <a href="/openapi.json">/openapi.json</a>
          </p>
        </footer>
        {props.script
          ? <script type="module" nonce={frame.nonce}>{raw(props.script)}</script>
          : null}
      </body>
    </html>
  );
}

/** The hidden CSRF field every console form carries. */
export function Csrf(props: { token: string }) {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

/** A message box: ok (green), info (blue), warn (amber) or bad (red). */
export function Notice(props: { kind: "ok" | "info" | "warn" | "bad"; children: Child }) {
  const role = props.kind === "bad" ? "alert" : "status";
  return <div class={`notice ${props.kind}`} role={role}>{props.children}</div>;
}

/** Field problems, keyed by field name; messages come from rules, never from the input. */
export type FieldErrors = Record<string, string>;

/** A summary of a form's problems, each linking to its field (focus lands on it). */
export function ErrorSummary(props: { errors: FieldErrors; labels: Record<string, string> }) {
  const entries = Object.entries(props.errors);
  if (entries.length === 0) return null;
  return (
    <div class="notice bad" role="alert">
      <p>
        <strong>
          {entries.length === 1 ? "There is a problem" : `There are ${entries.length} problems`}
        </strong>
      </p>
      <ul>
        {entries.map(([name, message]) => (
          <li>
            <a href={`#${name}`}>{`${props.labels[name] ?? name}: ${message}`}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A labelled input with its hint and error tied to it through aria-describedby. */
export function Field(props: {
  name: string;
  label: string;
  type?: string;
  value?: string;
  hint?: string;
  error?: string;
  autocomplete?: string;
  required?: boolean;
  maxlength?: number;
  minlength?: number;
  inputmode?: "numeric" | "email" | "text";
}) {
  const hintId = props.hint ? `${props.name}-hint` : undefined;
  const errorId = props.error ? `${props.name}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div class="field">
      <label for={props.name}>{props.label}</label>
      {props.hint ? <p class="hint" id={hintId}>{props.hint}</p> : null}
      {props.error ? <p class="error" id={errorId}>{props.error}</p> : null}
      <input
        id={props.name}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value}
        autocomplete={props.autocomplete}
        required={props.required}
        maxlength={props.maxlength}
        minlength={props.minlength}
        inputmode={props.inputmode}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={describedBy}
      />
    </div>
  );
}
