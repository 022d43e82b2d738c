// The tester's desk: pick a place, see a real published address with its test profile, copy it
// field by field, share it. Signs in with a generate token, kept in this tab's sessionStorage only
// (never in a URL, a cookie or the browser's lasting storage); a permalink carries the filters, seed
// and snapshot.
import { toGcj02 } from "./gcj02.js";
import { ApiError, fieldError, h, request, requestFile, signInForm, table } from "./ui.js";

const TOKEN_KEY = "ags.deskToken";
const main = document.getElementById("main");
const nav = document.getElementById("nav");
const announce = document.getElementById("announce");
const token = () => sessionStorage.getItem(TOKEN_KEY);
const api = (method, path, body) => request(token(), method, path, body);
const countryName = new Intl.DisplayNames(["en"], { type: "region" });

// The form's fields, each with the query parameter (and the error `field`) it is sent as.
const FIELDS = [
  { name: "country", label: "Country" },
  { name: "region", label: "Region" },
  { name: "city", label: "City" },
  { name: "district", label: "District" },
  { name: "postcode", label: "Postcode" },
  { name: "q", label: "Text in the address" },
  { name: "near", label: "Near (latitude,longitude)" },
  { name: "radius", label: "Within (metres)" },
  { name: "propertyType", label: "Property type" },
  { name: "license", label: "Licence" },
  { name: "traits", label: "Trait" },
  { name: "variant", label: "Near miss (for negative tests)" },
  { name: "seed", label: "Seed" },
];
// Choices as the API names them (the OpenAPI document's enums), "" for any.
const CHOICES = {
  propertyType: [["", "Any"], ["residential", "Residential"], ["commercial", "Commercial"], ["institutional", "Institutional"], ["industrial", "Industrial"], ["mixed", "Mixed"], ["unknown", "Unknown"]],
  license: [["", "Any"], ["public-domain", "Public domain only"], ["attribution", "Attribution or public domain"], ["share-alike", "Share-alike, attribution or public domain"]],
  traits: [["", "Any"], ["unit", "With a unit"], ["no-number", "Without a house number"], ["diacritics", "With diacritics"], ["non-latin", "In a non-Latin script"], ["multi-script", "In more than one script"], ["long-street", "A long street name"], ["long-line", "A long first line"]],
  variant: [["", "None: the published address"], ["missing-postcode", "Missing postcode"], ["missing-number", "Missing house number"], ["missing-unit", "Missing unit"], ["postcode-of-another-place", "Postcode of another place"], ["city-of-another-place", "City of another place"], ["street-of-another-city", "Street of another city"]],
};
const LOCALES = [["en", "English"], ["de", "German"], ["fr", "French"], ["es", "Spanish"], ["pt", "Portuguese"], ["ja", "Japanese"], ["ko", "Korean"], ["zh-CN", "Chinese (simplified)"], ["zh-TW", "Chinese (traditional)"]];
const DRAWN = ["region", "city", "district", "postcode", "q", "near", "radius", "propertyType", "license", "traits", "variant", "seed"];
const EXPORTED = ["region", "city", "district", "postcode", "q", "license", "traits", "seed"]; // what the export takes
const SHARED = ["country", ...DRAWN, "snapshot", "address"];
const PLACES = ["region", "city", "district", "postcode"]; // typed ahead over the catalog
const LISTS = { region: "regions", city: "cities", district: "districts", postcode: "postcodes" }; // the search's keys

// Address fields as a form asks for them; where the value comes from is said beside each.
const COMPONENTS = [
  ["street", "Street"],
  ["houseNumber", "House number"],
  ["unit", "Unit"],
  ["district", "District"],
  ["city", "City"],
  ["postcode", "Postcode"],
  ["region", "Region"],
  ["regionCode", "Region code"],
  ["province", "Province"],
  ["provinceCode", "Province code"],
];
// How a derived component is filled (docs/pool.md, "Derived components"): published evidence only.
const DERIVED = {
  region: "the source's area, the postcode's region in the postal authority's table, or the boundary containing the point",
  regionCode: "the ISO 3166-2 code of the derived region",
  city: "the administrative boundary containing the point, or the postcode's one delivery place",
  district: "the district boundary containing the point, or the source's district tag",
  province: "the province whose postcode prefix the postal authority's rules give",
  provinceCode: "the ISO 3166-2 code of the derived province",
  postcode: "the postal authority's table, where the place has exactly one code",
};

// ---- sign in ----------------------------------------------------------------------------------

function renderSignIn(message) {
  nav.hidden = true;
  const { form, input } = signInForm({
    key: TOKEN_KEY,
    id: "desk-token",
    label: "Token",
    hint: "A generate token: make run prints one (AGS_TOKEN).",
    empty: "Enter a token.",
    refused: "This token cannot generate addresses: use a generate token.",
    message,
    enter: async () => renderDesk(await api("GET", "api/v1/countries")),
  });
  main.replaceChildren(form);
  input.focus();
}

function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  renderSignIn(message);
}

// ---- the form ---------------------------------------------------------------------------------

function shared() {
  return Object.fromEntries([...new URLSearchParams(location.search)].filter(([key]) => SHARED.includes(key)));
}

async function renderDesk(countries) {
  nav.hidden = false;
  const given = shared();
  const published = countries.data.filter((c) => c.addressCount > 0);
  const inputs = {
    country: h(
      "select",
      { id: "desk-country" },
      published.map((c) =>
        h("option", { value: c.code }, `${countryName.of(c.code)} (${c.code}): ${c.addressCount.toLocaleString("en-US")} addresses`),
      ),
    ),
    region: h("input", { id: "desk-region", type: "text", autocomplete: "off", spellcheck: "false" }),
    city: h("input", { id: "desk-city", type: "text", autocomplete: "off", spellcheck: "false" }),
    district: h("input", { id: "desk-district", type: "text", autocomplete: "off", spellcheck: "false" }),
    postcode: h("input", { id: "desk-postcode", type: "text", autocomplete: "off", spellcheck: "false" }),
    q: h("input", { id: "desk-q", type: "text", autocomplete: "off" }),
    near: h("input", { id: "desk-near", type: "text", inputmode: "decimal", autocomplete: "off", placeholder: "52.37,4.89" }),
    radius: h("input", { id: "desk-radius", type: "text", inputmode: "numeric", autocomplete: "off", placeholder: "500" }),
    seed: h("input", { id: "desk-seed", type: "text", autocomplete: "off", spellcheck: "false" }),
  };
  for (const [name, choices] of Object.entries(CHOICES)) {
    inputs[name] = h("select", { id: `desk-${name}` }, choices.map(([value, label]) => h("option", { value }, label)));
    inputs[name].value = given[name] || "";
  }
  inputs.country.value = given.country || (published.find((c) => c.code === "NL") ? "NL" : published[0]?.code || "");
  for (const name of ["region", "city", "district", "postcode", "q", "near", "radius"]) inputs[name].value = given[name] || "";
  inputs.seed.value = given.seed || freshSeed();
  const pin = h("input", { id: "desk-pin", type: "checkbox" });
  pin.checked = Boolean(given.snapshot);
  const state = { snapshot: given.snapshot || null };
  const errors = {};
  const fields = FIELDS.map(({ name, label }) => {
    errors[name] = h("p", { id: `desk-${name}-error`, class: "field-error", role: "alert" });
    inputs[name].setAttribute("aria-describedby", `desk-${name}-error`);
    const control = PLACES.includes(name) ? combobox(inputs[name], name, () => inputs.country.value) : inputs[name];
    return h("div", { class: "field" }, h("label", { for: `desk-${name}` }, label), control, errors[name]);
  });
  const nearMe = h("button", { type: "button", class: "secondary small" }, "Near me");
  nearMe.addEventListener("click", () => {
    if (!navigator.geolocation) return fieldError(inputs.near, errors.near, "This browser cannot tell where it is.");
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => {
        inputs.near.value = `${coords.latitude.toFixed(5)},${coords.longitude.toFixed(5)}`;
        if (!inputs.radius.value) inputs.radius.value = "1000";
        fieldError(inputs.near, errors.near, "");
      },
      (problem) => fieldError(inputs.near, errors.near, `Your location is not available: ${problem.message}`),
    );
  });
  const newSeed = h("button", { type: "button", class: "secondary small" }, "New seed");
  newSeed.addEventListener("click", () => {
    inputs.seed.value = freshSeed();
    inputs.seed.focus();
  });
  const result = h("section", { id: "desk-result", "aria-label": "Address" });
  const form = h(
    "form",
    { class: "card desk-form", novalidate: true },
    h("h1", {}, "A real address for your form"),
    h("div", { class: "desk-grid" }, fields),
    h("div", { class: "desk-actions" }, nearMe, newSeed, h("label", { class: "check" }, pin, " Pin this snapshot (the seed keeps its address after a sync)")),
    h("button", { type: "submit" }, "Generate"),
  );
  const asked = (names) => {
    for (const name of Object.keys(errors)) fieldError(inputs[name], errors[name], "");
    const query = { country: inputs.country.value };
    for (const name of names) {
      const value = inputs[name].value.trim();
      if (value) query[name] = value;
    }
    if (pin.checked && state.snapshot) query.snapshot = state.snapshot;
    return query;
  };
  const draw = async () => {
    const query = asked(DRAWN);
    result.replaceChildren(h("p", { class: "muted", role: "status" }, "Drawing…"));
    try {
      const answer = await api("GET", `api/v1/generate?${new URLSearchParams(query)}`);
      state.snapshot = answer.data.snapshotId;
      const link = permalink({ ...query, ...(pin.checked ? { snapshot: state.snapshot } : {}) });
      history.replaceState(null, "", link);
      result.replaceChildren(...shown(answer.data, link));
    } catch (caught) {
      result.replaceChildren(failure(caught, inputs, errors, () => {
        pin.checked = false;
        state.snapshot = null;
        draw();
      }));
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    draw();
  });
  // The export walks the same filters in the seed's order: a table of its first 50, or a file.
  const exported = () => asked(EXPORTED);
  const unpinned = () => {
    pin.checked = false;
    state.snapshot = null;
  };
  main.replaceChildren(form, result, many(exported, inputs, errors, unpinned));
  if (given.address) await byId(given.address, result);
  else if (Object.keys(given).length) await draw();
}

// One address by its id (a near miss's base, say): the published address, without a profile.
async function byId(id, result) {
  try {
    const address = (await api("GET", `api/v1/addresses/${encodeURIComponent(id)}`)).data.address;
    result.replaceChildren(...shown({ result: { address, profile: null, variant: null } }, location.href));
  } catch (caught) {
    result.replaceChildren(h("p", { class: "error", role: "alert" }, caught.message));
  }
}

function many(exported, inputs, errors, unpinned) {
  const shownRows = h("div", { id: "desk-many" });
  const take = h("button", { type: "button" }, "Take 50");
  const count = h("input", { id: "desk-count", type: "number", min: "1", max: "100000", value: "50", inputmode: "numeric" });
  const format = h("select", { id: "desk-format" }, ["csv", "ndjson", "json"].map((f) => h("option", { value: f }, f.toUpperCase())));
  const download = h("button", { type: "button", class: "secondary" }, "Download");
  const progress = h("progress", { id: "desk-progress", max: "1", value: "0", hidden: true, "aria-label": "Download progress" });
  const status = h("p", { class: "muted", role: "status" });
  const failed = (caught) => shownRows.replaceChildren(failure(caught, inputs, errors, unpinned));
  take.addEventListener("click", async () => {
    const query = { ...exported(), page: "1", pageSize: "50", format: "json" };
    try {
      const page = (await api("GET", `api/v1/export?${new URLSearchParams(query)}`)).data;
      const rows = page.results.map(({ address, profile }) => [
        h("span", { class: "value" }, address.formattedAddress),
        profile.fullName,
        h("span", { class: "value" }, profile.email),
        profile.phone.number,
        copyButton(address.formattedAddress, address.formattedAddress),
      ]);
      shownRows.replaceChildren(table(`${rows.length} addresses (seed ${page.seed})`, ["Address", "Name", "E-mail", "Phone", "Copy"], rows));
    } catch (caught) {
      failed(caught);
    }
  });
  download.addEventListener("click", async () => {
    const wanted = Math.max(1, Math.min(100000, Number(count.value) || 50));
    try {
      const file = await exportFile(exported(), wanted, format.value, (done) => {
        progress.hidden = false;
        progress.max = wanted;
        progress.value = done;
        status.textContent = `${done.toLocaleString("en-US")} of ${wanted.toLocaleString("en-US")} addresses`;
      });
      const link = h("a", { href: URL.createObjectURL(file.blob), download: file.name, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      status.textContent = `Downloaded ${file.name}: ${file.rows.toLocaleString("en-US")} addresses.`;
    } catch (caught) {
      failed(caught);
    }
  });
  return h(
    "section",
    { class: "card", "aria-labelledby": "desk-many-heading" },
    h("h2", { id: "desk-many-heading" }, "Many at once"),
    h("p", { class: "hint" }, "The same filters and seed, in the seed's order: the first 50 here, or any number as a file."),
    h(
      "div",
      { class: "desk-actions" },
      take,
      h("label", { for: "desk-count" }, "How many"),
      count,
      h("label", { for: "desk-format" }, "Format"),
      format,
      download,
    ),
    progress,
    status,
    shownRows,
  );
}

// Page after page of the export (the same page size throughout, as it requires), up to `wanted`
// addresses, in one file: CSV keeps the first header, NDJSON joins lines, JSON one array.
async function exportFile(query, wanted, format, onProgress) {
  const pageSize = Math.min(wanted, 1000);
  const parts = [];
  let rows = 0;
  let seed = query.seed;
  for (let page = 1; rows < wanted; page++) {
    const asked = { ...query, ...(seed ? { seed } : {}), page: String(page), pageSize: String(pageSize), format: format === "json" ? "ndjson" : format };
    const response = await requestFile(token(), `api/v1/export?${new URLSearchParams(asked)}`);
    seed = decodeURIComponent(response.headers.get("X-Export-Seed") || "") || seed;
    const lines = records(await response.text());
    const body = format === "csv" ? lines.slice(1) : lines;
    if (format === "csv" && page === 1) parts.push(lines[0]);
    const taken = body.slice(0, wanted - rows);
    parts.push(...taken);
    rows += taken.length;
    onProgress(rows);
    if (!response.headers.get("Link") || taken.length === 0) break;
  }
  const text =
    format === "json"
      ? `[${parts.join(",")}]`
      : parts.join(format === "csv" ? "\r\n" : "\n") + (format === "csv" ? "\r\n" : "\n");
  const type = { csv: "text/csv", ndjson: "application/x-ndjson", json: "application/json" }[format];
  return { blob: new Blob([text], { type }), name: `addresses-${query.country}-${seed}.${format}`, rows };
}

function freshSeed() {
  return `desk-${crypto.getRandomValues(new Uint32Array(1))[0].toString(36)}`;
}

function permalink(query) {
  const link = new URL(location.href);
  link.search = new URLSearchParams(query).toString();
  link.hash = "";
  return link.toString();
}

// A type-ahead over the catalog's places of one kind (an ARIA combobox): suggestions as one types.
function combobox(input, field, country) {
  const listId = `desk-${field}-list`;
  const list = h("ul", { id: listId, role: "listbox", class: "suggestions", "aria-label": `${field} suggestions`, hidden: true });
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", listId);
  input.setAttribute("aria-expanded", "false");
  let active = -1;
  let timer = null;
  const options = () => [...list.children];
  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
    active = -1;
  };
  const choose = (option) => {
    input.value = option.dataset.value;
    close();
  };
  const highlight = (index) => {
    const all = options();
    if (!all.length) return;
    active = (index + all.length) % all.length;
    all.forEach((option, i) => option.setAttribute("aria-selected", String(i === active)));
    input.setAttribute("aria-activedescendant", all[active].id);
  };
  const suggest = async () => {
    const text = input.value.trim();
    if (!text) return close();
    const query = new URLSearchParams({ country: country(), field, q: text, limit: "20" });
    try {
      const found = (await api("GET", `api/v1/locations/search?${query}`)).data[LISTS[field]] || [];
      list.replaceChildren(
        ...found.slice(0, 8).map((place, i) => {
          const count = h("span", { class: "muted" }, ` ${place.availableCount.toLocaleString("en-US")}`);
          const option = h("li", { id: `desk-${field}-${i}`, role: "option", "aria-selected": "false", "data-value": place.value }, place.value, count);
          option.addEventListener("mousedown", (event) => event.preventDefault()); // keep the input's focus
          option.addEventListener("click", () => choose(option));
          return option;
        }),
      );
      list.hidden = found.length === 0;
      input.setAttribute("aria-expanded", String(found.length > 0));
      active = -1;
    } catch {
      close(); // suggestions are a help: the draw says what is wrong
    }
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(suggest, 200);
  });
  input.addEventListener("keydown", (event) => {
    if (list.hidden) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      highlight(active + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Enter" && active >= 0) {
      event.preventDefault();
      choose(options()[active]);
    } else if (event.key === "Escape") {
      close();
    }
  });
  input.addEventListener("blur", close);
  return h("div", { class: "combobox" }, input, list);
}

// ---- the address ------------------------------------------------------------------------------

function copyButton(label, text, shown = "Copy") {
  const button = h("button", { type: "button", class: "secondary small", "aria-label": `Copy ${label}` }, shown);
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText(text);
    announce.textContent = `Copied ${label}.`;
  });
  return button;
}

function shown(data, link) {
  const { address, profile, variant } = data.result;
  const derived = new Set(address.derived);
  const changed = new Set(variant ? variant.changed : []);
  const rows = COMPONENTS.filter(([key]) => address.components[key]).map(([key, label]) => {
    const value = address.components[key];
    const origin = changed.has(key)
      ? h("span", { class: "origin near-miss" }, `near miss: published for another address (${variant.donor})`)
      : derived.has(key)
      ? h("span", { class: "origin derived" }, `derived: ${DERIVED[key] || "from published evidence"}`)
      : h("span", { class: "origin published" }, "published by the source");
    return [label, h("span", { class: "value" }, value), origin, copyButton(label, value)];
  });
  const person = (profile
    ? [
        ["Name", profile.fullName],
        ["E-mail", profile.email],
        ["Phone", profile.phone.number],
        ["Date of birth", profile.dateOfBirth],
      ]
    : []
  ).map(([label, value]) => [label, h("span", { class: "value" }, value), h("span", { class: "origin fictitious" }, "fictitious: the test profile"), copyButton(label, value)]);
  const { latitude, longitude } = address.coordinates;
  const maps = [
    h("a", { href: `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=18/${latitude}/${longitude}`, rel: "noopener noreferrer", target: "_blank" }, "OpenStreetMap"),
    " · ",
    h("a", { href: `https://www.google.com/maps/search/?api=1&query=${latitude},${longitude}`, rel: "noopener noreferrer", target: "_blank" }, "Google Maps"),
  ];
  if (address.countryCode === "CN") {
    const [lat, lon] = toGcj02(latitude, longitude).map((v) => v.toFixed(6)); // AMap draws in GCJ-02
    maps.push(" · ", h("a", { id: "desk-amap", href: `https://uri.amap.com/marker?position=${lon},${lat}`, rel: "noopener noreferrer", target: "_blank" }, "AMap"));
  }
  return [
    h(
      "div",
      { class: "card" },
      h("h2", { id: "desk-address" }, address.formattedAddress),
      NON_LATIN.test(address.formattedAddress) ? latin(address.id) : null,
      h("p", { class: "desk-actions" }, copyButton("the whole address", address.formattedAddress, "Copy address"), copyButton("the record as JSON", JSON.stringify(data.result, null, 2), "Copy JSON")),
      variant
        ? h(
            "p",
            { class: "notice" },
            `A near miss for negative tests (${variant.kind}): ${variant.changed.join(", ")} changed from `,
            h("a", { id: "desk-base", href: permalink({ address: variant.base }) }, "the published address"),
            ".",
          )
        : null,
      h("div", { class: "desk-fields" }, table("Fields", ["Field", "Value", "Where it comes from", "Copy"], [...rows, ...person])),
      h(
        "dl",
        { class: "facts" },
        h("dt", {}, "Source"),
        h("dd", {}, `${address.source.id} · ${address.source.license} · ${address.source.attribution}`),
        h("dt", {}, "Time zone"),
        h("dd", {}, address.timeZone),
        h("dt", {}, "On a map"),
        h("dd", {}, maps),
        h("dt", {}, "Permalink"),
        h("dd", {}, h("a", { id: "desk-permalink", href: link }, "this address"), " ", copyButton("the permalink", link)),
      ),
      languages(address.id),
    ),
  ];
}

// A letter of another script than Latin: the address is then shown in Latin too.
const NON_LATIN = /(?!\p{Script=Latin})\p{L}/u;

// The address in Latin letters (its English display form), under the country's own writing.
function latin(addressId) {
  const line = h("p", { id: "desk-latin", class: "muted" }, "In Latin letters: …");
  api("POST", "api/v1/address-translation", { addressId, targetLocale: "en" }).then(
    (answer) => line.replaceChildren("In Latin letters: ", h("span", { lang: "en" }, answer.data.singleLine), " ", copyButton("the address in Latin letters", answer.data.singleLine)),
    () => line.replaceChildren("In Latin letters: not available."),
  );
  return line;
}

// The address in the nine display languages, on demand (nine translation requests).
function languages(addressId) {
  const list = h("div", { id: "desk-languages" });
  const show = h("button", { type: "button", class: "secondary small" }, "In the nine display languages");
  show.addEventListener("click", async () => {
    show.disabled = true;
    list.replaceChildren(h("p", { class: "muted", role: "status" }, "Translating…"));
    try {
      const lines = await Promise.all(
        LOCALES.map(async ([locale]) => (await api("POST", "api/v1/address-translation", { addressId, targetLocale: locale })).data.singleLine),
      );
      const rows = LOCALES.map(([locale, name], i) => [name, h("span", { class: "value", lang: locale }, lines[i]), copyButton(`the address in ${name}`, lines[i])]);
      list.replaceChildren(table("In the nine display languages", ["Language", "Address", "Copy"], rows));
    } catch (caught) {
      list.replaceChildren(h("p", { class: "error", role: "alert" }, `Could not translate: ${caught.message}`));
    } finally {
      show.disabled = false;
    }
  });
  return h("div", { class: "desk-languages" }, show, list);
}

// An error as a person reads it: beside its field, or a sentence with what to do.
function failure(error, inputs, errors, unpin) {
  if (!(error instanceof ApiError)) return h("p", { class: "error", role: "alert" }, `Could not reach the service: ${error.message}`);
  if (error.status === 401) {
    signOut("Your session ended: the token is no longer valid (revoked or expired).");
    return h("p");
  }
  let placed = false;
  for (const detail of error.details) {
    if (inputs[detail.field]) {
      fieldError(inputs[detail.field], errors[detail.field], detail.message);
      placed = true;
    }
  }
  if (placed) return h("p", { class: "error", role: "alert" }, "Check the fields marked above.");
  if (error.status === 429) {
    return h("p", { class: "error", role: "alert" }, `Too many requests for this token: try again in ${error.retryAfter || 60} s.`);
  }
  if (error.code === "SNAPSHOT_EXPIRED") {
    const again = h("button", { type: "button" }, "Use the current snapshot");
    again.addEventListener("click", unpin);
    return h("div", { class: "error", role: "alert" }, h("p", {}, `${error.message}.`), again);
  }
  return h("p", { class: "error", role: "alert" }, error.message);
}

// ---- start ------------------------------------------------------------------------------------

document.getElementById("sign-out").addEventListener("click", () => signOut("Signed out."));
if (token()) {
  api("GET", "api/v1/countries").then(renderDesk, () => signOut());
} else {
  renderSignIn();
}

// A page's records: its lines, except that a CSV cell in quotes may hold a line break (RFC 4180).
function records(text) {
  const found = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === "\n" && !quoted) {
      found.push(text.slice(start, text[i - 1] === "\r" ? i - 1 : i));
      start = i + 1;
    }
  }
  if (start < text.length) found.push(text.slice(start));
  return found.filter((line) => line !== "");
}
