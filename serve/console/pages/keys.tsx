/** The API keys page: the one-time display of a new key, the create form, the list, revoking. */
import {
  Csrf,
  ErrorSummary,
  Field,
  type FieldErrors,
  type Frame,
  Layout,
  Notice,
} from "./layout.tsx";

/** A key as the page lists it (the platform's metadata view). */
export interface KeyRow {
  key_id: number;
  name: string;
  prefix: string;
  last_four: string;
  status: "active" | "revoked";
  entitlements: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Notices after a redirect (a fixed set). */
export const KEY_NOTICES = {
  revoked: "The key was revoked. Requests with it are refused from now on.",
} as const;

/** A UTC timestamp as "2026-11-21 12:00 UTC". */
export function when(iso: string | null): string {
  return iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "never";
}

const COPY_SCRIPT = `
const button = document.getElementById("copy-key");
const field = document.getElementById("new-key-value");
const said = document.getElementById("copy-status");
if (button && field) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      said.textContent = "Copied to the clipboard.";
    } catch {
      field.select();
      said.textContent = "Copying was blocked: the key is selected, press Ctrl+C (or Cmd+C).";
    }
  });
}
`;

/** The keys page. */
export function KeysPage(props: {
  frame: Frame;
  keys: KeyRow[];
  created: { key: string; name: string } | null;
  contract: { entitlements: string[] } | null;
  notice?: keyof typeof KEY_NOTICES;
  state?: { errors?: FieldErrors; problem?: string; name?: string };
}) {
  const { errors = {}, problem } = props.state ?? {};
  const active = props.keys.filter((k) => k.status === "active").length;
  return (
    <Layout
      frame={props.frame}
      title="API keys"
      section="keys"
      script={props.created ? COPY_SCRIPT : undefined}
    >
      <h1>API keys</h1>
      <p class="lead">
        A runtime API key authenticates your application's calls to the API. Send it as{" "}
        <code>Authorization: Bearer &lt;key&gt;</code>.
      </p>
      {props.notice ? <Notice kind="ok">{KEY_NOTICES[props.notice]}</Notice> : null}
      {props.created
        ? (
          <section class="notice warn" id="new-key" aria-labelledby="new-key-heading">
            <h2 id="new-key-heading">Your new key “{props.created.name}”</h2>
            <p>
              <strong>Copy it now: it is shown only this once.</strong>{" "}
              We keep only a hash of it. If you lose it, revoke it and create another.
            </p>
            <label for="new-key-value">Key</label>
            <div class="keybox">
              <input
                id="new-key-value"
                type="text"
                readonly
                value={props.created.key}
                autocomplete="off"
                spellcheck={false}
              />
              <button id="copy-key" class="btn" type="button" hidden>Copy</button>
            </div>
            <p id="copy-status" role="status"></p>
            <p>
              Next: <a href="/console/try">try it</a> with this key, then watch{" "}
              <a href="/console/usage">usage</a>.
            </p>
          </section>
        )
        : null}
      <div class="grid">
        <section class="card" aria-labelledby="create-heading">
          <h2 id="create-heading">Create a key</h2>
          {problem ? <Notice kind="bad">{problem}</Notice> : null}
          <ErrorSummary errors={errors} labels={{ name: "Name", entitlements: "Entitlements" }} />
          {props.contract
            ? (
              <form method="post" action="/console/keys" novalidate>
                <Csrf token={props.frame.viewer!.csrf} />
                <Field
                  name="name"
                  label="Name"
                  required
                  maxlength={64}
                  value={errors.name ? undefined : props.state?.name}
                  error={errors.name}
                  hint="Where the key is used, e.g. production or staging. Letters, digits, spaces, . _ -"
                />
                {props.contract.entitlements.length > 0
                  ? (
                    <fieldset>
                      <legend>Entitlements</legend>
                      <input type="hidden" name="entitlements_shown" value="1" />
                      {props.contract.entitlements.map((e) => (
                        <label class="check">
                          <input type="checkbox" name="entitlements" value={e} checked />
                          {e}
                        </label>
                      ))}
                    </fieldset>
                  )
                  : null}
                <button class="btn" type="submit">Create key</button>
              </form>
            )
            : (
              <Notice kind="warn">
                The account has no contract in force, so no key can be created. Contact us to renew
                your access.
              </Notice>
            )}
        </section>
        <section class="card" aria-labelledby="start-heading">
          <h2 id="start-heading">Getting started</h2>
          <ol class="steps">
            <li>Create a key and copy it somewhere safe.</li>
            <li>
              Call the API from <a href="/console/try">Try it</a> or with curl.
            </li>
            <li>
              Watch your calls and limits on <a href="/console/usage">Usage</a>.
            </li>
          </ol>
          <p class="muted">
            {active === 0 ? "You have no active key yet." : `${active} active key(s).`}
          </p>
        </section>
      </div>
      <section class="card" aria-labelledby="list-heading">
        <h2 id="list-heading">Your keys</h2>
        {props.keys.length === 0 ? <p class="muted">No keys yet.</p> : (
          <div class="scroll">
            <table>
              <caption class="muted">
                Newest first. Keys are listed by prefix and last four characters.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Status</th>
                  <th scope="col">Entitlements</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span class="muted">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.keys.map((k) => (
                  <tr>
                    <th scope="row">{k.name}</th>
                    <td class="mono">{`${k.prefix}…${k.last_four}`}</td>
                    <td>
                      <span class={`status ${k.status}`}>{k.status}</span>
                    </td>
                    <td>{k.entitlements.length ? k.entitlements.join(", ") : "none"}</td>
                    <td>{when(k.created_at)}</td>
                    <td>{when(k.last_used_at)}</td>
                    <td>
                      {k.status === "active"
                        ? (
                          <a
                            class="btn secondary small"
                            href={`/console/keys/${k.key_id}/revoke`}
                            aria-label={`Revoke key ${k.name}`}
                          >
                            Revoke
                          </a>
                        )
                        : <span class="muted">{`revoked ${when(k.revoked_at)}`}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </Layout>
  );
}

/** The confirmation before revoking a key. */
export function RevokePage(props: { frame: Frame; apiKey: KeyRow }) {
  const key = props.apiKey;
  return (
    <Layout frame={props.frame} title="Revoke key" section="keys" narrow>
      <h1>Revoke key “{key.name}”?</h1>
      <form class="card" method="post" action={`/console/keys/${key.key_id}/revoke`}>
        <Csrf token={props.frame.viewer!.csrf} />
        <p>
          Key <span class="mono">{`${key.prefix}…${key.last_four}`}</span>, created{" "}
          {when(key.created_at)}, last used {when(key.last_used_at)}.
        </p>
        <Notice kind="warn">
          Applications using this key stop working: every server refuses it within a few seconds.
          This cannot be undone.
        </Notice>
        <div class="actions">
          <button class="btn danger" type="submit">Revoke key</button>
          <a href="/console/keys">Cancel</a>
        </div>
      </form>
    </Layout>
  );
}
