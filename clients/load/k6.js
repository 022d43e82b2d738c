// A k6 load test whose virtual users sign up with real published addresses, each VU from its own
// slice of the pool: VU k of N draws from `partition=(k-1)/N` (k6 shares no data between VUs, so
// each reads its own slice, page by page, from the seeded export), and no two VUs ever submit the
// same address.
//
//   k6 run -e AGS_BASE_URL=http://127.0.0.1:8000 -e AGS_TOKEN=... --vus 8 --duration 1m clients/load/k6.js
//
// AGS_COUNTRY (default US) and AGS_SEED (default load) choose the addresses; replace signUp's
// request with your application's.
import http from "k6/http";
import exec from "k6/execution";
import { check } from "k6";

const BASE = __ENV.AGS_BASE_URL || "http://127.0.0.1:8000";
const HEADERS = { Authorization: `Bearer ${__ENV.AGS_TOKEN}` };
const COUNTRY = __ENV.AGS_COUNTRY || "US";
const SEED = __ENV.AGS_SEED || "load";
const PAGE = 50;

// Per VU (each runs this module in its own JavaScript runtime): its slice and what is left of its page.
let waiting = [];
let page = 1;

function partition() {
  const vus = exec.test.options.scenarios.default?.vus ?? exec.instance.vusInitialized;
  return `${exec.vu.idInTest - 1}/${Math.max(1, vus)}`;
}

function nextCustomer() {
  if (waiting.length === 0) {
    const query = `country=${COUNTRY}&seed=${encodeURIComponent(SEED)}&partition=${partition()}&page=${page}&pageSize=${PAGE}`;
    const answer = http.get(`${BASE}/api/v1/export?${query}`, { headers: HEADERS, tags: { name: "export (feed)" } });
    const data = answer.json("data");
    waiting = data.results.slice();
    page = data.nextPage || 1;
  }
  return waiting.shift();
}

export default function signUp() {
  const customer = nextCustomer();
  // Your application's sign-up here; this example reads the address back from the service.
  const answer = http.get(`${BASE}/api/v1/addresses/${customer.address.id}`, { headers: HEADERS, tags: { name: "/addresses/{id}" } });
  check(answer, { "the address is served": (r) => r.status === 200 });
}
