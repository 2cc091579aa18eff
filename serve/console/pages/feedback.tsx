/** The feedback page: send feedback, and the account's own feedback. */
import { Csrf, ErrorSummary, type FieldErrors, type Frame, Layout, Notice } from "./layout.tsx";
import { when } from "./keys.tsx";

/** A feedback record as listed. */
export interface FeedbackRow {
  feedback_id: number;
  category: string;
  message: string;
  rating: number | null;
  related_request_id: string | null;
  created_at: string;
}

const LABELS = {
  category: "Category",
  message: "Message",
  rating: "Rating",
  related_request_id: "Related request id",
};

/** The feedback page. */
export function FeedbackPage(props: {
  frame: Frame;
  categories: readonly string[];
  rows: FeedbackRow[];
  sent?: boolean;
  values?: { category?: string; related_request_id?: string; rating?: string };
  errors?: FieldErrors;
}) {
  const errors = props.errors ?? {};
  const values = props.values ?? {};
  const described = (name: string, hint?: string) =>
    [hint, errors[name] ? `${name}-error` : undefined].filter(Boolean).join(" ") || undefined;
  const error = (name: string) =>
    errors[name] ? <p class="error" id={`${name}-error`}>{errors[name]}</p> : null;
  return (
    <Layout frame={props.frame} title="Feedback" section="feedback">
      <h1>Feedback</h1>
      <p class="lead">Tell us about a wrong answer, a bug or what you miss. We read every one.</p>
      {props.sent ? <Notice kind="ok">Thank you: your feedback was sent.</Notice> : null}
      <ErrorSummary errors={errors} labels={LABELS} />
      <form id="feedback-form" class="card" method="post" action="/console/feedback" novalidate>
        <Csrf token={props.frame.viewer!.csrf} />
        <div class="field">
          <label for="category">Category</label>
          {error("category")}
          <select id="category" name="category" aria-describedby={described("category")}>
            {props.categories.map((c) => (
              <option value={c} selected={c === (values.category ?? "other")}>
                {c.replace(/_/g, " ")}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="message">Message</label>
          <p class="hint" id="message-hint">Up to 5,000 characters.</p>
          {error("message")}
          <textarea
            id="message"
            name="message"
            maxlength={5000}
            required
            aria-invalid={errors.message ? "true" : undefined}
            aria-describedby={described("message", "message-hint")}
          >
          </textarea>
        </div>
        <div class="field">
          <label for="rating">Rating (optional)</label>
          {error("rating")}
          <select id="rating" name="rating" aria-describedby={described("rating")}>
            <option value="">no rating</option>
            {[5, 4, 3, 2, 1].map((n) => (
              <option value={String(n)} selected={values.rating === String(n)}>
                {`${n} of 5`}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="related_request_id">Related request id (optional)</label>
          <p class="hint" id="related-hint">
            The X-Request-Id of the answer this is about; "Report this result" on Try it fills it
            in.
          </p>
          {error("related_request_id")}
          <input
            id="related_request_id"
            name="related_request_id"
            type="text"
            class="mono"
            maxlength={128}
            value={values.related_request_id}
            aria-invalid={errors.related_request_id ? "true" : undefined}
            aria-describedby={described("related_request_id", "related-hint")}
          />
        </div>
        <button class="btn" type="submit">Send feedback</button>
      </form>
      <section class="card" aria-labelledby="mine-heading">
        <h2 id="mine-heading">Your feedback</h2>
        {props.rows.length === 0 ? <p class="muted">Nothing sent yet.</p> : (
          <div class="scroll">
            <table>
              <caption class="muted">Newest first.</caption>
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">Category</th>
                  <th scope="col">Rating</th>
                  <th scope="col">Request</th>
                  <th scope="col">Message</th>
                </tr>
              </thead>
              <tbody>
                {props.rows.map((f) => (
                  <tr>
                    <th scope="row">{when(f.created_at)}</th>
                    <td>{f.category.replace(/_/g, " ")}</td>
                    <td>{f.rating === null ? "–" : `${f.rating} of 5`}</td>
                    <td class="mono">{f.related_request_id ?? "–"}</td>
                    <td>{f.message.length > 300 ? `${f.message.slice(0, 300)}…` : f.message}</td>
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
