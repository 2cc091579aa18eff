/** The try-it page: a form that calls candidates, analyze or classify from the browser. */
import { type Frame, Layout, Notice } from "./layout.tsx";
import { TRY_SCRIPT } from "./try_script.ts";

const EXAMPLE_TITLE = "Sr. Registered Nurse (RN) - ICU Night Shift, Dallas, TX";

/** The try-it page. */
export function TryPage(props: { frame: Frame }) {
  return (
    <Layout frame={props.frame} title="Try it" section="try" script={TRY_SCRIPT}>
      <h1>Try the API</h1>
      <p class="lead">
        Paste a key, pick an endpoint and send a job title. Your key stays in this page's memory and
        goes only to this server's API: it is never stored.
      </p>
      <noscript>
        <Notice kind="warn">
          Try it needs JavaScript (the key never leaves your browser except in the API call).
          Without it, use the curl command from the <a href="/docs">API reference</a>.
        </Notice>
      </noscript>
      <form id="try-form" class="card" novalidate>
        <div class="field">
          <label for="key">API key</label>
          <p class="hint" id="key-hint">
            From the <a href="/console/keys">API keys</a> page (starts with oik_).
          </p>
          <input
            id="key"
            name="key"
            type="password"
            autocomplete="off"
            spellcheck={false}
            aria-describedby="key-hint"
            required
          />
        </div>
        <fieldset>
          <legend>Endpoint</legend>
          <label class="check">
            <input type="radio" name="endpoint" value="candidates" checked />
            Candidates: a ranked shortlist of occupations
          </label>
          <label class="check">
            <input type="radio" name="endpoint" value="analyze" />
            Analyze: occupations with calibrated confidence, skills and related occupations
          </label>
          <label class="check">
            <input type="radio" name="endpoint" value="classify" />
            Classify: the single best occupation
          </label>
        </fieldset>
        <div class="field">
          <label for="title">Job title</label>
          <input
            id="title"
            name="title"
            type="text"
            maxlength={500}
            value={EXAMPLE_TITLE}
            required
          />
        </div>
        <div class="field">
          <label for="description">Description (optional)</label>
          <textarea id="description" name="description" maxlength={20000}></textarea>
        </div>
        <div class="field" id="limit-field">
          <label for="limit">How many candidates</label>
          <input id="limit" name="limit" type="number" min={1} max={10} value="5" />
        </div>
        <div class="actions">
          <button class="btn" type="submit">Send request</button>
        </div>
        <p id="try-status" role="status"></p>
      </form>
      <section id="try-output" class="card" aria-labelledby="answer-heading" hidden>
        <h2 id="answer-heading">Answer</h2>
        <div id="try-table"></div>
        <h3>JSON</h3>
        <pre id="try-json" tabindex={0} aria-label="JSON answer"></pre>
        <p>
          <a id="try-report" href="/console/feedback">Report this result</a>{" "}
          <span class="muted">(sends us feedback about this exact answer)</span>
        </p>
      </section>
      <section class="card" aria-labelledby="curl-heading">
        <h2 id="curl-heading">The same call with curl</h2>
        <p class="muted">
          Put your key in <code>OI_API_KEY</code> first.
        </p>
        <pre id="try-curl" tabindex={0} aria-label="curl command"></pre>
      </section>
    </Layout>
  );
}
