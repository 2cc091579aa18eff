/**
 * The try-it page's inline module. The key is read from its field at each call and held in
 * nothing else (no storage, no cookie); the call goes straight to the API with the key as the
 * bearer and without cookies (`credentials: "omit"`). Answers are shown with textContent only.
 */
export const TRY_SCRIPT = `
const form = document.getElementById("try-form");
const out = document.getElementById("try-output");
const said = document.getElementById("try-status");
const json = document.getElementById("try-json");
const curl = document.getElementById("try-curl");
const table = document.getElementById("try-table");
const report = document.getElementById("try-report");
const limitField = document.getElementById("limit-field");
const PATHS = {
  candidates: "/api/v1/occupation/candidates",
  analyze: "/api/v1/job/analyze",
  classify: "/api/v1/job/classify",
};
const quote = (s) => "'" + s.replace(/'/g, "'\\\\''") + "'";
function request() {
  const endpoint = form.endpoint.value;
  const body = { title: form.title.value };
  if (form.description.value.trim()) body.description = form.description.value;
  if (endpoint === "candidates") body.limit = Number(form.limit.value) || 5;
  return { endpoint, path: PATHS[endpoint], body };
}
function showCurl() {
  const { path, body } = request();
  curl.textContent = "curl -s -X POST " + location.origin + path + " \\\\\\n" +
    '  -H "Authorization: Bearer $OI_API_KEY" \\\\\\n' +
    '  -H "Content-Type: application/json" \\\\\\n' +
    "  -d " + quote(JSON.stringify(body));
  limitField.hidden = form.endpoint.value !== "candidates";
}
function cell(row, text, tag = "td") {
  const el = document.createElement(tag);
  el.textContent = text;
  if (tag === "th") el.scope = "row";
  row.appendChild(el);
}
function candidatesTable(answer) {
  table.replaceChildren();
  if (!answer || !Array.isArray(answer.candidates)) return;
  const t = document.createElement("table");
  const caption = document.createElement("caption");
  caption.textContent = "Candidates (" + answer.score_interpretation + ")";
  t.appendChild(caption);
  const head = t.createTHead().insertRow();
  for (const h of ["Rank", "Occupation", "Score", "Reasons", "Evidence"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = h;
    head.appendChild(th);
  }
  const body = t.createTBody();
  for (const c of answer.candidates) {
    const row = body.insertRow();
    cell(row, String(c.rank), "th");
    cell(row, c.title + " (" + c.onet_code + ")");
    cell(row, c.relevance_score.toFixed(3));
    cell(row, c.match_reasons.join(", ").replace(/_/g, " "));
    const e = c.evidence;
    cell(row, "matched " + e.title_match_type + " title “" + e.matched_title + "”; role " +
      e.query_role_head + " / " + e.candidate_role_head + "; " + e.description_term_matches +
      " description and " + e.task_term_matches + " task terms");
  }
  const wrap = document.createElement("div");
  wrap.className = "scroll";
  wrap.appendChild(t);
  table.appendChild(wrap);
}
form.addEventListener("input", showCurl);
form.addEventListener("change", showCurl);
showCurl();
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const key = form.key.value.trim();
  if (!key) {
    said.textContent = "Paste an API key first.";
    form.key.focus();
    return;
  }
  const { endpoint, path, body } = request();
  said.textContent = "Calling " + path + "…";
  out.hidden = true;
  try {
    const response = await fetch(path, {
      method: "POST",
      credentials: "omit",
      headers: { authorization: "Bearer " + key, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    let answer = null;
    try { answer = JSON.parse(text); } catch { /* not JSON */ }
    const id = response.headers.get("x-request-id") || "";
    said.textContent = response.status + " " + (response.ok ? "OK" : (answer && answer.title) || "error") +
      (id ? " · request id " + id : "");
    json.textContent = answer ? JSON.stringify(answer, null, 2) : text;
    if (response.ok && endpoint === "candidates") candidatesTable(answer);
    else table.replaceChildren();
    report.hidden = !id;
    report.href = "/console/feedback?related_request_id=" + encodeURIComponent(id) + "#feedback-form";
    out.hidden = false;
  } catch {
    said.textContent = "The API could not be reached. Try again.";
  }
});
`;
