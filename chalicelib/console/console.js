// The administrator console: sign in with an admin token, manage tokens, watch the data, read the
// API docs. Everything shown is set as text (append / textContent), never parsed as HTML, so a
// label or a source name cannot inject markup. The token lives in this tab's sessionStorage only.

import { ApiError, ROOT, fieldError, h, request, signInForm, table, url } from "./ui.js";

const TOKEN_KEY = "ags.adminToken";
const POLL_MS = 2000;
const main = document.getElementById("main");
const nav = document.getElementById("nav");
let pollTimer = null;
let swaggerLoaded = null;
// The token created last in this tab, for the docs page to try: held in memory only, gone on reload.
let tryToken = null;

// ---- small helpers -------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs = {}, text) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (text !== undefined) el.textContent = text;
  return el;
}

const number = (n) => Number(n).toLocaleString("en-US");
const when = (iso) => (iso ? `${String(iso).slice(0, 16).replace("T", " ")}\u00a0UTC` : "—");
// A time in a table cell: may wrap between date and time, so a wide table fits a 1280 px screen.
const moment = (iso) => (iso ? h("time", { class: "when", datetime: iso }, when(iso)) : "—");

// ---- the API ----------------------------------------------------------------------------------

const token = () => sessionStorage.getItem(TOKEN_KEY);
const api = (method, path, body) => request(token(), method, path, body);

// A page's failure: a token that stopped working signs out; anything else is said on the page.
function failed(error, where) {
  if (error instanceof ApiError && error.status === 401) {
    signOut("Your session ended: the admin token is no longer valid (revoked or expired).");
    return;
  }
  where.replaceChildren(h("p", { class: "error", role: "alert" }, `Could not load: ${error.message}`));
}

// ---- sign in / out ----------------------------------------------------------------------------

function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  location.hash = "#/sign-in";
  renderSignIn(message);
}

function renderSignIn(message) {
  nav.hidden = true;
  const { form, input } = signInForm({
    key: TOKEN_KEY,
    id: "admin-token",
    label: "Admin token",
    hint: "make run prints one; or make token SCOPE=admin.",
    empty: "Enter an admin token.",
    refused: "This token is not an admin token.",
    message,
    enter: async () => {
      await api("GET", "api/v1/admin/tokens");
      location.hash = "#/tokens";
      route();
    },
  });
  main.replaceChildren(form);
  input.focus();
}

// A form's labelled fields, each with its hint (if any) and the element its error goes in.
function labelledFields(prefix, specs, inputs, hints) {
  const errors = {};
  const fields = specs.map(({ name, label }) => {
    errors[name] = h("p", { id: `${prefix}-${name}-error`, class: "field-error", role: "alert" });
    inputs[name].setAttribute("aria-describedby", `${prefix}-${name}-error`);
    const hint = hints[name] ? h("p", { class: "hint" }, hints[name]) : null;
    return h("div", { class: "field" }, h("label", { for: `${prefix}-${name}` }, label), inputs[name], hint, errors[name]);
  });
  return { fields, errors };
}

// The server's field errors next to their fields; false when none names a field of the form.
function placeDetails(specs, inputs, errors, details) {
  let placed = false;
  for (const detail of details || []) {
    const field = specs.find(({ api: names }) => names.includes(detail.field));
    if (field) {
      fieldError(inputs[field.name], errors[field.name], detail.message);
      placed = true;
    }
  }
  return placed;
}

// ---- tokens -----------------------------------------------------------------------------------

const TOKEN_FIELDS = [
  { name: "label", label: "Label", api: ["label"] },
  { name: "scope", label: "Scope", api: ["scope"] },
  { name: "rate", label: "Requests per minute", api: ["ratePerMinute", "rate"] },
  { name: "expires", label: "Expires in", api: ["expiresIn", "expires"] },
];

function tokenForm(onCreated) {
  const inputs = {
    label: h("input", { id: "token-label", name: "label", type: "text", maxlength: "100", required: true }),
    scope: h(
      "select",
      { id: "token-scope", name: "scope" },
      h("option", { value: "generate", selected: true }, "generate (all public endpoints)"),
      h("option", { value: "read" }, "read (read-only endpoints)"),
      h("option", { value: "admin" }, "admin (this console)"),
    ),
    rate: h("input", { id: "token-rate", name: "rate", type: "number", min: "1", max: "100000", value: "60" }),
    expires: h("input", { id: "token-expires", name: "expires", type: "text", value: "30d" }),
  };
  const { fields, errors } = labelledFields("token", TOKEN_FIELDS, inputs, {
    expires: "A number with s, m, h or d: 2h, 30d (at most 366d).",
  });
  const formError = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    { class: "card", novalidate: true, "aria-labelledby": "create-heading" },
    h("h2", { id: "create-heading" }, "New token"),
    h("div", { class: "fields" }, fields),
    formError,
    h("button", { type: "submit" }, "Create token"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = {
      label: inputs.label.value.trim(),
      scope: inputs.scope.value,
      rate: inputs.rate.value.trim(),
      expires: inputs.expires.value.trim(),
    };
    const problems = checkToken(values);
    for (const { name } of TOKEN_FIELDS) fieldError(inputs[name], errors[name], problems[name] || "");
    formError.textContent = "";
    const first = TOKEN_FIELDS.find(({ name }) => problems[name]);
    if (first) return inputs[first.name].focus();
    try {
      const body = { label: values.label, scope: values.scope, ratePerMinute: Number(values.rate), expiresIn: values.expires };
      const created = await api("POST", "api/v1/admin/tokens", body);
      form.reset();
      onCreated(created.data);
    } catch (caught) {
      if (caught.status === 401) return failed(caught, main);
      if (!placeDetails(TOKEN_FIELDS, inputs, errors, caught.details))
        formError.textContent = `Could not create the token: ${caught.message}`;
    }
  });
  return form;
}

function checkToken(values) {
  const problems = {};
  if (!values.label) problems.label = "Enter a label: who or what the token is for.";
  else if (values.label.length > 100) problems.label = "At most 100 characters.";
  if (!/^\d+$/.test(values.rate) || Number(values.rate) < 1 || Number(values.rate) > 100000)
    problems.rate = "A whole number from 1 to 100000.";
  if (!/^\d{1,7}[smhd]$/.test(values.expires)) problems.expires = "Use a number with s, m, h or d, e.g. 2h or 30d.";
  return problems;
}

function secretPanel(created) {
  const secret = h("input", {
    id: "new-secret",
    type: "text",
    readonly: true,
    value: created.secret,
    "aria-label": "New token secret",
    spellcheck: "false",
  });
  const status = h("span", { class: "muted", role: "status" });
  const copy = h("button", { type: "button" }, "Copy");
  copy.addEventListener("click", async () => {
    secret.select();
    try {
      await navigator.clipboard.writeText(created.secret);
      status.textContent = "Copied.";
    } catch {
      status.textContent = "Select the text and copy it (Ctrl+C).";
    }
  });
  const tryIt = h("button", { type: "button", class: "secondary" }, "Try it in the API docs");
  tryIt.addEventListener("click", () => {
    tryToken = { label: created.token.label, secret: created.secret };
    location.hash = "#/docs";
  });
  return h(
    "section",
    { class: "card secret", "aria-labelledby": "secret-heading" },
    h("h2", { id: "secret-heading" }, `Token created: ${created.token.label}`),
    h("p", {}, "Copy the secret now: it is shown only once and cannot be recovered."),
    h("div", { class: "secret-row" }, secret, copy, status),
    created.token.scope === "admin" ? null : h("p", {}, tryIt),
  );
}

function revokeDialog(entry, onRevoked) {
  const dialog = h(
    "dialog",
    { class: "card", "aria-labelledby": "revoke-heading" },
    h("h2", { id: "revoke-heading" }, "Revoke token?"),
    h("p", {}, `“${entry.label}” (${entry.id}) will be refused from now on. This cannot be undone.`),
  );
  const error = h("p", { class: "error", role: "alert" });
  const confirm = h("button", { type: "button", class: "danger" }, "Revoke");
  const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
  cancel.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => dialog.remove());
  confirm.addEventListener("click", async () => {
    try {
      await api("POST", `api/v1/admin/tokens/${encodeURIComponent(entry.id)}/revoke`);
      dialog.close();
      onRevoked();
    } catch (caught) {
      error.textContent = `Could not revoke: ${caught.message}`;
    }
  });
  dialog.append(error, h("div", { class: "actions" }, confirm, cancel));
  document.body.append(dialog);
  dialog.showModal();
  cancel.focus();
}

async function renderTokens() {
  const list = h("div", { "aria-live": "polite" }, h("p", { class: "muted" }, "Loading…"));
  const secretSlot = h("div");
  const refresh = async () => {
    try {
      const { data } = await api("GET", "api/v1/admin/tokens");
      list.replaceChildren(tokensTable(data, refresh));
    } catch (caught) {
      failed(caught, list);
    }
  };
  const form = tokenForm((created) => {
    secretSlot.replaceChildren(secretPanel(created));
    document.getElementById("new-secret").focus();
    refresh();
  });
  main.replaceChildren(h("h1", {}, "Tokens"), secretSlot, form, h("h2", {}, "All tokens"), list);
  await refresh();
}

function tokensTable(tokens, refresh) {
  const rows = tokens.map((t) => [
    t.label,
    h("code", {}, t.id),
    t.scope,
    number(t.ratePerMinute),
    number(t.requestsToday),
    moment(t.lastUsedAt),
    moment(t.createdAt),
    moment(t.expiresAt),
    h("span", { class: `status status-${t.status}` }, t.status),
    t.status === "active"
      ? h(
          "button",
          { type: "button", class: "danger small", "aria-label": `Revoke ${t.label}`, onclick: () => revokeDialog(t, refresh) },
          "Revoke",
        )
      : "",
  ]);
  const headers = ["Label", "ID", "Scope", "Limit/min", "Requests today", "Last used", "Created", "Expires", "Status", "Revoke"];
  return table("Tokens", headers, rows, "no tokens yet");
}

// ---- data -------------------------------------------------------------------------------------

function rulesMet(coverage) {
  const rules = coverage.rules;
  return [rules.total.met, rules.administrativeCoverage.met, rules.regionalMinimums.met].filter(Boolean).length;
}

function chart(countries) {
  const rowHeight = 26;
  const labelWidth = 40;
  const width = 600;
  const barWidth = width - labelWidth - 110;
  // Pools run from tens to millions of addresses: a log scale keeps the small ones visible.
  const scale = (n) => Math.log10(n + 1) / Math.log10(Math.max(10, ...countries.map((c) => c.addressCount + 1)));
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${countries.length * rowHeight + 30}`,
    class: "chart",
    role: "img",
    "aria-labelledby": "chart-title",
  });
  svg.append(s("title", { id: "chart-title" }, "Pool size and coverage rules met, per country"));
  svg.append(s("rect", { x: labelWidth, y: 4, width: 12, height: 10, class: "bar-pool" }));
  svg.append(s("text", { x: labelWidth + 16, y: 13, class: "legend" }, "pool size (log scale)"));
  svg.append(s("rect", { x: labelWidth + 150, y: 4, width: 12, height: 10, class: "bar-coverage" }));
  svg.append(s("text", { x: labelWidth + 166, y: 13, class: "legend" }, "coverage rules met (of 3)"));
  countries.forEach((c, i) => {
    const y = 24 + i * rowHeight;
    const pool = Math.max(c.addressCount ? 2 : 0, scale(c.addressCount) * barWidth);
    const coverage = (rulesMet(c.coverage) / 3) * barWidth;
    svg.append(s("text", { x: 0, y: y + 14, class: "axis" }, c.code));
    svg.append(s("rect", { x: labelWidth, y, width: pool, height: 9, class: "bar-pool" }));
    svg.append(s("rect", { x: labelWidth, y: y + 11, width: coverage, height: 9, class: "bar-coverage" }));
    svg.append(s("text", { x: labelWidth + barWidth + 6, y: y + 9, class: "value" }, number(c.addressCount)));
    svg.append(s("text", { x: labelWidth + barWidth + 6, y: y + 20, class: "value" }, `${rulesMet(c.coverage)}/3`));
  });
  return h("figure", { class: "card chart-card" }, svg);
}

function progress(status) {
  const sync = status.sync;
  const report = sync.lastReport;
  if (!report) return "No sync has run yet.";
  if (sync.running) {
    const done = Object.keys(report.countries).length;
    const building = report.building ? `building ${report.building}; ` : "";
    return `Sync running since ${when(report.startedAt)}: ${building}${done} of ${report.planned.length} countries done.`;
  }
  return `Last sync: started ${when(report.startedAt)}, finished ${when(report.finishedAt)}, ${report.ok ? "succeeded" : "with failures"}.`;
}

function reasons(counts) {
  const entries = Object.entries(counts || {});
  return entries.length ? entries.map(([reason, n]) => `${reason}=${number(n)}`).join(", ") : "—";
}

function syncReport(report) {
  if (!report) return h("p", { class: "muted" }, "No sync report yet.");
  const countries = Object.entries(report.countries).map(([code, o]) => [
    code,
    o.status,
    number(o.addresses),
    number(o.itemsWritten),
    number(o.itemsDeleted),
    o.error || "—",
  ]);
  const sources = Object.entries(report.sources).map(([name, t]) => [
    name,
    t.country,
    number(t.read),
    number(t.kept),
    reasons(t.dropped),
    reasons(t.removedFields),
  ]);
  return h(
    "div",
    {},
    table("Countries in the last sync", ["Country", "Status", "Addresses", "Items written", "Items deleted", "Error"], countries),
    table("Sources in the last sync", ["Source", "Country", "Read", "Kept", "Dropped by reason", "Fields removed"], sources),
  );
}

async function renderData() {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  const status = h("p", { id: "sync-progress", class: "notice", role: "status", "aria-live": "polite" });
  const error = h("p", { class: "error", role: "alert" });
  const start = h("button", { type: "button" }, "Start sync");
  const load = async () => {
    clearTimeout(pollTimer);
    try {
      const { data } = await api("GET", "api/v1/admin/data");
      status.textContent = progress(data);
      start.disabled = data.sync.running;
      body.replaceChildren(dataBody(data));
      if (data.sync.running && location.hash === "#/data") pollTimer = setTimeout(load, POLL_MS);
    } catch (caught) {
      failed(caught, body);
    }
  };
  start.addEventListener("click", async () => {
    error.textContent = "";
    start.disabled = true;
    try {
      await api("POST", "api/v1/admin/sync");
      status.textContent = "Sync started; progress follows here.";
      pollTimer = setTimeout(load, POLL_MS);
    } catch (caught) {
      start.disabled = false;
      if (caught.status === 401) return failed(caught, body);
      error.textContent = caught.status === 409 ? "A sync is running already." : `Could not start: ${caught.message}`;
    }
  });
  main.replaceChildren(h("h1", {}, "Data"), h("div", { class: "toolbar" }, start, status), error, body);
  await load();
}

function dataBody(data) {
  const rows = data.countries.map((c) => [
    c.code,
    number(c.addressCount),
    number(c.residentialCount),
    number(c.completeCount),
    `${rulesMet(c.coverage)} of 3`,
    c.ready ? "yes" : "no",
    c.syncState,
    c.snapshotId ? h("code", {}, c.snapshotId.slice(0, 16)) : "—",
    when(c.publishedAt),
  ]);
  const issues = data.configurationErrors.map((i) => [i.country || "—", i.field, i.message]);
  return h(
    "div",
    {},
    h("p", { class: data.healthy ? "ok" : "warn" }, data.healthy ? "Healthy: every enabled country is ready." : "Not healthy: some enabled countries have no pool, or the configuration has errors."),
    chart(data.countries),
    table(
      "Countries",
      ["Country", "Pool size", "Residential", "Complete", "Coverage rules met", "Ready", "Sync", "Snapshot", "Published"],
      rows,
    ),
    h("h2", {}, "Configuration errors"),
    table("Configuration errors", ["Country", "Field", "Message"], issues),
    h("h2", {}, "Last sync report"),
    syncReport(data.sync.lastReport),
  );
}

// ---- API docs ---------------------------------------------------------------------------------

function loadSwagger() {
  if (!swaggerLoaded) {
    swaggerLoaded = new Promise((resolve, reject) => {
      document.head.append(h("link", { rel: "stylesheet", href: url("admin/vendor/swagger-ui.css") }));
      const script = h("script", { src: url("admin/vendor/swagger-ui-bundle.js") });
      script.addEventListener("load", resolve);
      script.addEventListener("error", () => reject(new Error("swagger-ui did not load")));
      document.head.append(script);
    });
  }
  return swaggerLoaded;
}

async function renderDocs() {
  const target = h("div", { id: "swagger", class: "swagger" }, h("p", { class: "muted" }, "Loading…"));
  const trying = tryToken;
  main.replaceChildren(
    h("h1", {}, "API docs"),
    h(
      "p",
      {},
      "Try the public endpoints with a generate or read token: Authorize, paste it, then Try it out on an operation. ",
      "Admin tokens are refused there. The administrators' API is described in ",
      h("a", { href: url("api/v1/admin/openapi.json") }, "its own document"),
      ".",
    ),
    trying
      ? h("p", { class: "notice", role: "status" }, `Authorized with the token you just created: ${trying.label}.`)
      : null,
    target,
  );
  try {
    const [response] = await Promise.all([fetch(url("api/v1/openapi.json")), loadSwagger()]);
    const spec = await response.json();
    spec.servers = [{ url: ROOT.pathname.replace(/\/$/, "") || "/" }];
    target.replaceChildren();
    let ui = null;
    ui = window.SwaggerUIBundle({
      spec,
      domNode: target,
      deepLinking: false,
      docExpansion: "list",
      defaultModelsExpandDepth: 0,
      // Possibly called before SwaggerUIBundle returns: authorize once `ui` is set.
      onComplete: () => queueMicrotask(() => trying && ui.preauthorizeApiKey("bearerAuth", trying.secret)),
    });
  } catch (caught) {
    target.replaceChildren(h("p", { class: "error", role: "alert" }, `Could not load the API docs: ${caught.message}`));
  }
}

// ---- withdrawals ------------------------------------------------------------------------------

const WITHDRAW_FIELDS = [
  { name: "address", label: "Address id", api: ["addressId"] },
  { name: "scope", label: "Withdraw", api: ["scope"] },
  { name: "reason", label: "Reason", api: ["reason"] },
];

function withdrawForm(onWithdrawn) {
  const inputs = {
    address: h("input", { id: "withdraw-address", name: "address", type: "text", maxlength: "160", required: true, spellcheck: "false" }),
    scope: h(
      "select",
      { id: "withdraw-scope", name: "scope" },
      h("option", { value: "address", selected: true }, "this address (its unit only)"),
      h("option", { value: "building" }, "every address of its building (number, street, postcode)"),
    ),
    reason: h("input", { id: "withdraw-reason", name: "reason", type: "text", maxlength: "500", required: true }),
  };
  const { fields, errors } = labelledFields("withdraw", WITHDRAW_FIELDS, inputs, {
    address: "As an answer gives it, e.g. us-… (GET /api/v1/addresses/{id} shows it).",
  });
  const formError = h("p", { class: "error", role: "alert" });
  const form = h(
    "form",
    { class: "card", novalidate: true, "aria-labelledby": "withdraw-heading" },
    h("h2", { id: "withdraw-heading" }, "Withdraw an address"),
    h("p", {}, "A withdrawn address is never served again: not by any route, not from a pinned snapshot, not after a sync."),
    h("div", { class: "fields" }, fields),
    formError,
    h("button", { type: "submit", class: "danger" }, "Withdraw"),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = { address: inputs.address.value.trim(), scope: inputs.scope.value, reason: inputs.reason.value.trim() };
    const problems = {};
    if (!values.address) problems.address = "Enter the id of a served address.";
    if (!values.reason) problems.reason = "Say why (a resident's request, its reference).";
    for (const { name } of WITHDRAW_FIELDS) fieldError(inputs[name], errors[name], problems[name] || "");
    formError.textContent = "";
    const first = WITHDRAW_FIELDS.find(({ name }) => problems[name]);
    if (first) return inputs[first.name].focus();
    try {
      const made = await api("POST", "api/v1/admin/withdrawals", { addressId: values.address, scope: values.scope, reason: values.reason });
      form.reset();
      onWithdrawn(made.data);
    } catch (caught) {
      if (caught.status === 401) return failed(caught, main);
      if (caught.code === "ADDRESS_NOT_FOUND" || caught.code === "ADDRESS_WITHDRAWN") {
        fieldError(inputs.address, errors.address, caught.message);
        return inputs.address.focus();
      }
      if (!placeDetails(WITHDRAW_FIELDS, inputs, errors, caught.details))
        formError.textContent = `Could not withdraw: ${caught.message}`;
    }
  });
  return form;
}

async function renderWithdrawals() {
  const list = h("div", { "aria-live": "polite" }, h("p", { class: "muted" }, "Loading…"));
  const done = h("p", { role: "status" });
  const refresh = async () => {
    try {
      const { data } = await api("GET", "api/v1/admin/withdrawals");
      const rows = data.map((w) => {
        const undo = h("button", { type: "button", class: "secondary", "aria-label": `Reinstate ${w.address}` }, "Reinstate");
        undo.addEventListener("click", async () => {
          try {
            await api("DELETE", `api/v1/admin/withdrawals/${encodeURIComponent(w.id)}`);
            done.textContent = `Reinstated: ${w.address}. It is served again within seconds.`;
            refresh();
          } catch (caught) {
            done.textContent = `Could not reinstate: ${caught.message}`;
          }
        });
        return [when(w.withdrawnAt), w.country, w.scope, w.address, h("code", {}, w.addressId), w.reason, h("code", {}, w.actor), undo];
      });
      list.replaceChildren(
        table("Withdrawn addresses", ["When", "Country", "Scope", "Address", "Address id", "Reason", "Administrator", "Undo"], rows, "none yet"),
      );
    } catch (caught) {
      failed(caught, list);
    }
  };
  const form = withdrawForm((made) => {
    done.textContent = `Withdrawn: ${made.address} (${made.scope}). Every API process stops serving it within seconds.`;
    refresh();
  });
  main.replaceChildren(h("h1", {}, "Withdrawals"), done, form, h("h2", {}, "Withdrawn"), list);
  await refresh();
}

// ---- audit ------------------------------------------------------------------------------------

async function renderAudit() {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  main.replaceChildren(h("h1", {}, "Audit log"), h("p", {}, "Every administrator action, newest first."), body);
  try {
    const { data } = await api("GET", "api/v1/admin/audit?limit=200");
    const rows = data.map((e) => [
      when(e.at),
      h("code", {}, e.actor),
      e.action,
      e.target || "—",
      Object.entries(e.details).map(([k, v]) => `${k}=${v}`).join(", ") || "—",
    ]);
    body.replaceChildren(table("Audit log", ["When", "Administrator (token id)", "Action", "Target", "Details"], rows, "nothing yet"));
  } catch (caught) {
    failed(caught, body);
  }
}

// ---- routing ----------------------------------------------------------------------------------

const PAGES = { tokens: renderTokens, data: renderData, withdrawals: renderWithdrawals, docs: renderDocs, audit: renderAudit };

function route() {
  clearTimeout(pollTimer);
  if (!token()) return renderSignIn();
  const page = location.hash.replace(/^#\//, "") || "tokens";
  const render = PAGES[page] || renderTokens;
  nav.hidden = false;
  for (const link of nav.querySelectorAll("a")) {
    if (link.dataset.page === page) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  render();
  main.focus({ preventScroll: true });
}

document.getElementById("sign-out").addEventListener("click", () => signOut("Signed out."));
window.addEventListener("hashchange", route);
route();
