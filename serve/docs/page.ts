// Self-contained API documentation page: no external hosts, CSP-friendly (no inline script).

const STYLE = `
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --soft: #f6f8fa; --link: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; color: var(--fg); background: #fff; }
code, .path, .ctype, .type, .ref, .prop, .tag, .status, .method { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
a { color: var(--link); text-decoration: none; }
a:hover { text-decoration: underline; }
header { padding: 24px 32px; border-bottom: 1px solid var(--border); background: var(--soft); }
header h1 { margin: 0 0 4px; font-size: 28px; }
header p { margin: 4px 0; }
#app { padding: 24px 32px; max-width: 1400px; }
#app.ready { display: grid; grid-template-columns: 280px minmax(0, 1fr); gap: 32px; }
.toc { position: sticky; top: 16px; align-self: start; max-height: calc(100vh - 32px); overflow: auto; font-size: 13px; }
.toc h2 { font-size: 14px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 0 0 8px; }
.toc ul { list-style: none; padding: 0; margin: 0; }
.toc ul ul { margin: 4px 0 12px; }
.toc li li { margin: 3px 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.toc-tag { font-weight: 600; }
@media (max-width: 900px) { #app, header { padding: 16px; } #app.ready { grid-template-columns: 1fr; } .toc { position: static; max-height: none; } }
.group > h2 { font-size: 22px; border-bottom: 1px solid var(--border); padding-bottom: 6px; margin: 8px 0 16px; }
.op { border: 1px solid var(--border); border-radius: 8px; padding: 16px 20px; margin: 0 0 20px; }
.op-head { margin: 0; font-size: 17px; display: flex; align-items: center; gap: 10px; flex-wrap: wrap; }
.method { display: inline-block; min-width: 64px; text-align: center; padding: 2px 8px; border-radius: 4px; color: #fff; font-size: 12px; font-weight: 700; background: #6e7781; }
.method.small { min-width: 54px; font-size: 10px; padding: 0 4px; margin-right: 6px; }
.m-get { background: #1a7f37; } .m-post { background: #0969da; } .m-put { background: #9a6700; }
.m-patch { background: #8250df; } .m-delete { background: #cf222e; }
.deprecated .op-head .path { text-decoration: line-through; }
.summary { font-weight: 600; margin: 10px 0 4px; }
.desc { white-space: pre-line; margin: 2px 0; }
h4 { margin: 18px 0 8px; font-size: 13px; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--border); padding: 6px 8px; }
th { background: var(--soft); font-weight: 600; }
.type { color: #0550ae; margin-right: 4px; }
.ref { color: #8250df; font-weight: 600; margin-right: 4px; }
.tag { display: inline-block; font-size: 12px; background: var(--soft); border: 1px solid var(--border); border-radius: 4px; padding: 0 5px; margin: 1px 4px 1px 0; color: var(--muted); word-break: break-all; }
.tag.warn { background: #fff8c5; border-color: #d4a72c; color: #7d4e00; }
.req { color: #cf222e; font-size: 12px; font-weight: 600; margin: 0 6px; text-transform: none; letter-spacing: 0; }
.props, .variants { list-style: none; margin: 4px 0 4px 2px; padding-left: 14px; border-left: 2px solid var(--border); }
.props li, .variants li { margin: 4px 0; }
.prop { font-weight: 600; margin-right: 6px; }
.combo-label { font-size: 12px; color: var(--muted); font-style: italic; }
.media { margin: 8px 0; padding: 8px 12px; background: var(--soft); border-radius: 6px; }
.ctype { font-size: 12px; color: var(--muted); display: block; margin-bottom: 4px; }
.response { border-top: 1px solid var(--border); padding: 8px 0; }
.status { font-weight: 700; padding: 1px 8px; border-radius: 4px; margin-right: 10px; background: #eaeef2; }
.s2 { background: #dafbe1; color: #116329; } .s3 { background: #ddf4ff; color: #0550ae; }
.s4 { background: #fff1e5; color: #953800; } .s5 { background: #ffebe9; color: #a40e26; }
.security { font-size: 14px; margin: 6px 0; }
.security code { background: var(--soft); padding: 0 4px; border-radius: 3px; }
.error { border: 1px solid #ff8182; background: #ffebe9; color: #82071e; padding: 12px 16px; border-radius: 6px; }
.muted { color: var(--muted); }
`;

const HTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
<script src="/docs/app.js" defer></script>
</head>
<body>
<header id="api-header">
<h1 id="api-title">API reference</h1>
<p id="api-version" class="muted"></p>
<div id="api-description" class="desc"></div>
<p><a href="/openapi.json">Raw OpenAPI document (/openapi.json)</a></p>
</header>
<noscript><p class="error">This page needs JavaScript to render the API reference. The raw OpenAPI document is available at <a href="/openapi.json">/openapi.json</a>.</p></noscript>
<div id="app"><p class="muted">Loading API description...</p></div>
</body>
</html>
`;

// Browser code (ES2020). No template literals, no "${" and no backslashes inside it.
const SCRIPT = String.raw`(function () {
  "use strict";
  var MAX_DEPTH = 6;
  var METHODS = ["get", "put", "post", "patch", "delete", "head", "options", "trace"];
  var KEYS = ["format", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties",
    "default", "example"];
  var COMBOS = { oneOf: "one of:", anyOf: "any of:", allOf: "all of:" };
  var spec = {};
  var usedIds = {};

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function add(parent, tag, cls, text) { return parent.appendChild(el(tag, cls, text)); }
  function isObj(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function uniqueId(base) {
    var id = String(base).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "x";
    var n = usedIds[id] || 0;
    usedIds[id] = n + 1;
    return n ? id + "-" + (n + 1) : id;
  }
  function lookup(ref) {
    if (typeof ref !== "string" || ref.indexOf("#/") !== 0) return undefined;
    var parts = ref.slice(2).split("/");
    var cur = spec;
    for (var i = 0; i < parts.length; i++) {
      var key;
      try { key = decodeURIComponent(parts[i]); } catch (_e) { key = parts[i]; }
      key = key.split("~1").join("/").split("~0").join("~");
      if (!isObj(cur) || !Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
      cur = cur[key];
    }
    return cur;
  }
  function deref(obj) {
    for (var guard = 0; isObj(obj) && typeof obj.$ref === "string" && guard < 10; guard++) obj = lookup(obj.$ref);
    return isObj(obj) ? obj : {};
  }
  function refName(ref) { var parts = String(ref).split("/"); return parts[parts.length - 1]; }
  function show(v) {
    var s = JSON.stringify(v);
    if (s === undefined) s = String(v);
    return s.length > 120 ? s.slice(0, 117) + "..." : s;
  }
  function typesOf(s) {
    var t = Array.isArray(s.type) ? s.type.slice() : s.type ? [s.type] : [];
    if (!t.length) {
      if (isObj(s.properties) || isObj(s.additionalProperties)) t.push("object");
      else if (s.items !== undefined) t.push("array");
      else if (s.const !== undefined && s.const !== null) t.push(typeof s.const);
      else if (Array.isArray(s.enum) && s.enum.length && s.enum[0] !== null) t.push(typeof s.enum[0]);
    }
    if (s.nullable === true && t.indexOf("null") < 0) t.push("null");
    return t;
  }
  function descr(parent, s, hide) {
    if (isObj(s) && typeof s.description === "string" && s.description && s.description !== hide) {
      add(parent, "div", "desc", s.description);
    }
  }
  function tags(parent, s) {
    if (!isObj(s)) return;
    var ts = typesOf(s);
    if (ts.length > 1 && ts.indexOf("null") >= 0) add(parent, "span", "tag", "nullable");
    KEYS.forEach(function (k) {
      if (s[k] === undefined) return;
      add(parent, "span", "tag", k === "format" ? s[k] : k + ": " + (k === "pattern" ? String(s[k]) : show(s[k])));
    });
    if (Array.isArray(s.examples) && s.examples.length) add(parent, "span", "tag", "example: " + show(s.examples[0]));
    if (Array.isArray(s.enum)) add(parent, "span", "tag", "enum: " + s.enum.map(show).join(" | "));
    if (s.const !== undefined) add(parent, "span", "tag", "const: " + show(s.const));
    if (s.deprecated === true) add(parent, "span", "tag warn", "deprecated");
    if (s.readOnly === true) add(parent, "span", "tag", "read-only");
    if (s.writeOnly === true) add(parent, "span", "tag", "write-only");
  }

  // Appends a rendering of schema s to parent. opts.prefix precedes the type label ("array of "),
  // opts.extra holds enclosing array schemas whose constraints and descriptions belong here too.
  function renderSchema(parent, s, depth, seen, opts) {
    opts = opts || {};
    var prefix = opts.prefix || "";
    var extra = opts.extra || [];
    if (s === undefined || s === true || (isObj(s) && Object.keys(s).length === 0)) s = { type: "any" };
    if (s === false) s = { type: "never" };
    if (!isObj(s)) { add(parent, "span", "type", prefix + "?"); return; }
    if (typeof s.$ref === "string") {
      if (prefix) add(parent, "span", "type", prefix.trim());
      add(parent, "span", "ref", refName(s.$ref));
      var target = lookup(s.$ref);
      if (seen.indexOf(s.$ref) >= 0 || (target !== undefined && depth >= MAX_DEPTH)) {
        add(parent, "span", "tag", seen.indexOf(s.$ref) >= 0 ? "recursive" : "details omitted");
        extra.forEach(function (x) { tags(parent, x); descr(parent, x); });
        descr(parent, s, opts.hide);
        return;
      }
      if (target === undefined) { add(parent, "span", "tag warn", "unresolved " + s.$ref); return; }
      var next = isObj(target) && typeof target.$ref !== "string" ? Object.assign({}, target, s, { $ref: undefined }) : target;
      renderSchema(parent, next, depth, seen.concat([s.$ref]), { extra: extra, hide: opts.hide });
      return;
    }
    var types = typesOf(s);
    var nonNull = types.filter(function (t) { return t !== "null"; });
    if (nonNull.length === 1 && nonNull[0] === "array" && depth < MAX_DEPTH) {
      renderSchema(parent, s.items, depth + 1, seen, { prefix: prefix + "array of ", extra: extra.concat([s]), hide: opts.hide });
      return;
    }
    var label = nonNull.length ? nonNull.join(" | ") : types.length ? "null" : "";
    if (!label && !s.oneOf && !s.anyOf && !s.allOf) label = "any";
    if (prefix || label) add(parent, "span", "type", (prefix + label).trim());
    tags(parent, s);
    extra.forEach(function (x) { tags(parent, x); });
    extra.forEach(function (x) { descr(parent, x, opts.hide); });
    descr(parent, s, opts.hide);
    var hasKids = isObj(s.properties) || isObj(s.additionalProperties) || s.oneOf || s.anyOf || s.allOf;
    if (!hasKids) return;
    if (depth >= MAX_DEPTH) { add(parent, "span", "tag", "nested schema omitted"); return; }
    var required = Array.isArray(s.required) ? s.required : [];
    if (isObj(s.properties) || isObj(s.additionalProperties)) {
      var ul = add(parent, "ul", "props");
      Object.keys(s.properties || {}).forEach(function (name) {
        var li = add(ul, "li");
        add(li, "span", "prop", name);
        if (required.indexOf(name) >= 0) add(li, "span", "req", "required");
        renderSchema(li, s.properties[name], depth + 1, seen);
      });
      if (isObj(s.additionalProperties)) {
        var ap = add(ul, "li");
        add(ap, "span", "prop muted", "[key: string]");
        renderSchema(ap, s.additionalProperties, depth + 1, seen);
      }
    }
    Object.keys(COMBOS).forEach(function (k) {
      if (!Array.isArray(s[k])) return;
      var box = add(parent, "div", "combo");
      add(box, "span", "combo-label", COMBOS[k]);
      var list = add(box, "ul", "variants");
      s[k].forEach(function (v) { renderSchema(add(list, "li"), v, depth + 1, seen); });
    });
  }

  function renderContent(parent, content) {
    if (!isObj(content)) return;
    Object.keys(content).forEach(function (ct) {
      var media = isObj(content[ct]) ? content[ct] : {};
      var box = add(parent, "div", "media");
      add(box, "code", "ctype", ct);
      if (media.schema !== undefined) renderSchema(add(box, "div", "schema"), media.schema, 0, []);
    });
  }
  function mergeParams(a, b) {
    var out = [];
    var idx = {};
    [a, b].forEach(function (list) {
      (Array.isArray(list) ? list : []).forEach(function (raw) {
        var p = deref(raw);
        var key = p.in + ":" + p.name;
        if (idx[key] !== undefined) out[idx[key]] = p;
        else { idx[key] = out.length; out.push(p); }
      });
    });
    return out;
  }
  function renderSecurity(sec, op) {
    var reqs = Array.isArray(op.security) ? op.security : Array.isArray(spec.security) ? spec.security : [];
    if (!reqs.length) return;
    var schemes = isObj(spec.components) && isObj(spec.components.securitySchemes) ? spec.components.securitySchemes : {};
    var p = add(sec, "p", "security");
    add(p, "strong", null, "Security: ");
    reqs.forEach(function (req, i) {
      if (i > 0) add(p, "span", "muted", " or ");
      var names = Object.keys(isObj(req) ? req : {});
      if (!names.length) add(p, "span", "muted", "none (optional)");
      names.forEach(function (n, j) {
        if (j > 0) add(p, "span", "muted", " + ");
        var scopes = Array.isArray(req[n]) && req[n].length ? " (" + req[n].join(", ") + ")" : "";
        var c = add(p, "code", null, n + scopes);
        var sc = deref(schemes[n]);
        if (sc.type) c.title = [sc.type, sc.scheme, sc.bearerFormat, sc.in, sc.name].filter(Boolean).join(" ");
      });
    });
  }
  function renderOperation(container, item) {
    var op = item.op;
    var sec = add(container, "section", "op" + (op.deprecated ? " deprecated" : ""));
    sec.id = item.id;
    var h = add(sec, "h3", "op-head");
    add(h, "span", "method m-" + item.method, item.method.toUpperCase());
    add(h, "code", "path", item.path);
    if (op.deprecated) add(h, "span", "tag warn", "deprecated");
    if (op.summary) add(sec, "p", "summary", op.summary);
    descr(sec, op);
    renderSecurity(sec, op);
    var params = mergeParams(item.pathItem.parameters, op.parameters);
    if (params.length) {
      add(sec, "h4", null, "Parameters");
      var table = add(add(sec, "div", "scroll"), "table", "params");
      var tr = add(add(table, "thead"), "tr");
      ["Name", "In", "Required", "Schema", "Description"].forEach(function (t) { add(tr, "th", null, t); });
      var tbody = add(table, "tbody");
      params.forEach(function (p) {
        var row = add(tbody, "tr");
        add(add(row, "td"), "code", "prop", p.name);
        add(row, "td", null, p.in);
        add(row, "td", p.required ? "req" : "muted", p.required ? "required" : "optional");
        var schema = p.schema;
        if (schema === undefined && isObj(p.content)) {
          var ct = Object.keys(p.content)[0];
          schema = ct && isObj(p.content[ct]) ? p.content[ct].schema : undefined;
        }
        renderSchema(add(row, "td", "schema"), schema, 1, [], { hide: p.description });
        var d = add(row, "td");
        descr(d, p);
        if (p.deprecated) add(d, "span", "tag warn", "deprecated");
      });
    }
    if (op.requestBody) {
      var rb = deref(op.requestBody);
      var h4 = add(sec, "h4", null, "Request body");
      if (rb.required) add(h4, "span", "req", "required");
      descr(sec, rb);
      renderContent(sec, rb.content);
    }
    if (isObj(op.responses)) {
      add(sec, "h4", null, "Responses");
      Object.keys(op.responses).forEach(function (code) {
        var r = deref(op.responses[code]);
        var row = add(sec, "div", "response");
        var head = add(row, "div", "resp-head");
        add(head, "span", "status s" + String(code).charAt(0), code);
        if (r.description) add(head, "span", "resp-desc", r.description);
        renderContent(row, r.content);
      });
    }
  }

  function setText(id, text) { var e = document.getElementById(id); if (e) e.textContent = text; }
  function render(doc) {
    if (!isObj(doc)) throw new Error("/openapi.json did not contain a JSON object");
    spec = doc;
    var info = isObj(doc.info) ? doc.info : {};
    if (info.title) { setText("api-title", info.title); document.title = info.title + " - API reference"; }
    setText("api-version", [info.version ? "Version " + info.version : "", doc.openapi ? "OpenAPI " + doc.openapi : ""]
      .filter(Boolean).join(" - "));
    if (typeof info.description === "string") setText("api-description", info.description);
    var tagDesc = {};
    (Array.isArray(doc.tags) ? doc.tags : []).forEach(function (t) { if (isObj(t)) tagDesc[t.name] = t.description; });
    var groups = [];
    var byName = {};
    var paths = isObj(doc.paths) ? doc.paths : {};
    Object.keys(paths).forEach(function (path) {
      var pathItem = deref(paths[path]);
      METHODS.forEach(function (m) {
        var op = pathItem[m];
        if (!isObj(op)) return;
        var tag = Array.isArray(op.tags) && op.tags.length ? String(op.tags[0]) : "Other";
        if (!byName[tag]) { byName[tag] = { name: tag, ops: [] }; groups.push(byName[tag]); }
        var id = uniqueId("op-" + (op.operationId || m + "-" + path));
        byName[tag].ops.push({ method: m, path: path, op: op, pathItem: pathItem, id: id });
      });
    });
    var app = document.getElementById("app");
    app.textContent = "";
    if (!groups.length) { add(app, "p", "muted", "This API document defines no operations."); return; }
    app.className = "ready";
    var toc = add(app, "nav", "toc");
    add(toc, "h2", null, "Contents");
    var tocList = add(toc, "ul");
    var main = add(app, "main", "groups");
    groups.forEach(function (g) {
      var gid = uniqueId("tag-" + g.name);
      var li = add(tocList, "li");
      add(li, "a", "toc-tag", g.name).href = "#" + gid;
      var sub = add(li, "ul");
      var section = add(main, "section", "group");
      section.id = gid;
      add(section, "h2", null, g.name);
      if (typeof tagDesc[g.name] === "string") add(section, "div", "desc", tagDesc[g.name]);
      g.ops.forEach(function (item) {
        var a = add(add(sub, "li"), "a");
        a.href = "#" + item.id;
        if (item.op.summary) a.title = item.op.summary;
        add(a, "span", "method small m-" + item.method, item.method.toUpperCase());
        add(a, "code", "path", item.path);
        renderOperation(section, item);
      });
    });
    if (location.hash.length > 1) {
      var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
      if (target) target.scrollIntoView();
    }
  }
  function showError(err) {
    var app = document.getElementById("app");
    app.textContent = "";
    app.className = "";
    var box = add(app, "div", "error");
    add(box, "strong", null, "Could not load the API description.");
    add(box, "p", null, err && err.message ? err.message : String(err));
    var p = add(box, "p", null, "The raw document may still be available at ");
    add(p, "a", null, "/openapi.json").href = "/openapi.json";
  }

  fetch("/openapi.json", { headers: { Accept: "application/json" }, credentials: "same-origin" })
    .then(function (res) {
      if (!res.ok) throw new Error("GET /openapi.json failed: HTTP " + res.status + (res.statusText ? " " + res.statusText : ""));
      return res.json().catch(function (e) { throw new Error("/openapi.json is not valid JSON (" + e.message + ")"); });
    })
    .then(render)
    .catch(showError);
})();
`;

/** Returns the HTML document for GET /docs (loads /docs/app.js, which renders /openapi.json). */
export function docsHtml(): string {
  return HTML;
}

/** Returns the browser JavaScript for GET /docs/app.js that fetches /openapi.json and renders it. */
export function docsScript(): string {
  return SCRIPT;
}
