// What the two pages share (the console at /admin, the tester's desk at /desk): building elements
// as text (never parsed as HTML), a table, the API call with a bearer token, and field errors.

export const ROOT = new URL(".", location.href); // "/" locally, "/<stage>/" behind API Gateway

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) el.append(child); // strings become text
  }
  return el;
}

export const url = (path) => new URL(path, ROOT).toString();

export function table(caption, headers, rows, empty = "None") {
  if (!rows.length) return h("p", { class: "muted" }, `${caption}: ${empty}.`);
  return h(
    "div",
    { class: "table-wrap", tabindex: "0", role: "region", "aria-label": caption },
    h(
      "table",
      {},
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, headers.map((name) => h("th", { scope: "col" }, name)))),
      h("tbody", {}, rows.map((cells) => h("tr", {}, cells.map((cell) => h("td", {}, cell))))),
    ),
  );
}

export class ApiError extends Error {
  constructor(status, body, headers) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || "";
    this.details = error.details || [];
    this.retryAfter = Number(headers?.get("Retry-After")) || null; // seconds, when the service says
  }
}

// A call to the API with this bearer token: its JSON answer, or an ApiError.
export async function request(token, method, path, body) {
  return (await send(token, method, path, body)).json();
}

// A call whose answer is a file (an export page as CSV or NDJSON): the Response, or an ApiError.
export function requestFile(token, path) {
  return send(token, "GET", path);
}

async function send(token, method, path, body) {
  const headers = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url(path), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
    credentials: "omit",
  });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null), response.headers);
  return response;
}

export function fieldError(input, element, text) {
  element.textContent = text;
  if (text) input.setAttribute("aria-invalid", "true");
  else input.removeAttribute("aria-invalid");
}

// A sign-in form: the token is tried by `enter` (which calls the API with it) after it is kept in
// this tab's sessionStorage under `key`; a refusal forgets it and says why beside the field.
export function signInForm({ key, id, label, hint, empty, refused, message, enter }) {
  const input = h("input", {
    id,
    name: id,
    type: "password",
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": `${id}-error ${id}-hint`,
  });
  const error = h("p", { id: `${id}-error`, class: "field-error", role: "alert" });
  const form = h(
    "form",
    { class: "card narrow", novalidate: true },
    h("h1", {}, "Sign in"),
    message ? h("p", { class: "notice", role: "status" }, message) : null,
    h("div", { class: "field" }, h("label", { for: id }, label), input, h("p", { id: `${id}-hint`, class: "hint" }, hint), error),
    h("button", { type: "submit" }, "Sign in"),
    h("p", { class: "hint" }, "The token is kept in this browser tab only, and forgotten when it closes."),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const value = input.value.trim();
    fieldError(input, error, value ? "" : empty);
    if (!value) return;
    sessionStorage.setItem(key, value);
    try {
      await enter();
    } catch (caught) {
      sessionStorage.removeItem(key);
      const text =
        caught.status === 403
          ? refused
          : caught.status === 401
            ? "This token is not valid: unknown, revoked or expired."
            : `Could not sign in: ${caught.message}`;
      fieldError(input, error, text);
    }
  });
  return { form, input };
}
