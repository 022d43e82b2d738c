import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";

import { AgsClient, AgsError, AgsUnreachable, retriable, retryAfterSeconds } from "../src/client.js";

type Answer = { status: number; headers?: Record<string, string>; body: unknown; delayMs?: number };

/** A stand-in for the service: answers each request with the next scripted answer, and records it. */
class Scripted {
  readonly seen: { method: string; url: string; body: string; authorization?: string }[] = [];
  private answers: Answer[] = [];
  private readonly server = createServer((req, res) => void this.answer(req, res));
  url = "";

  async start(): Promise<void> {
    await new Promise<void>((done) => this.server.listen(0, "127.0.0.1", done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((done) => this.server.close(() => done()));
  }

  script(...answers: Answer[]): void {
    this.answers = answers;
    this.seen.length = 0;
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = "";
    for await (const chunk of req) body += chunk;
    this.seen.push({ method: req.method ?? "", url: req.url ?? "", body, authorization: req.headers.authorization });
    const next = this.answers.shift() ?? { status: 500, body: { error: { code: "INTERNAL_ERROR", message: "unscripted" } } };
    if (next.delayMs) await new Promise((done) => setTimeout(done, next.delayMs));
    if (res.destroyed) return;
    res.writeHead(next.status, { "Content-Type": "application/json", ...next.headers });
    res.end(JSON.stringify(next.body));
  }
}

const LIMITED: Answer = {
  status: 429,
  headers: { "Retry-After": "3" },
  body: { error: { code: "RATE_LIMITED", message: "over the limit", requestId: "r1" } },
};

describe("the client", () => {
  const service = new Scripted();
  const waits: number[] = [];
  const client = () =>
    new AgsClient({ baseUrl: service.url, token: "ags_x_y", sleep: async (ms) => void waits.push(ms) });

  before(() => service.start());
  after(() => service.stop());

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-28T12:00:00Z");
    assert.equal(retryAfterSeconds("7", now), 7);
    assert.equal(retryAfterSeconds("Sat, 28 Nov 2026 12:00:10 GMT", now), 10);
    assert.equal(retryAfterSeconds("Sat, 28 Nov 2026 11:59:00 GMT", now), 0);
    assert.equal(retryAfterSeconds("soon", now), undefined);
    assert.equal(retryAfterSeconds("1.5", now), undefined); // Date.parse would read a year in it
    assert.equal(retryAfterSeconds(null, now), undefined);
  });

  it("waits the Retry-After of a 429 and of a 503, then sends the same request again", async () => {
    waits.length = 0;
    const unavailable = { status: 503, headers: { "Retry-After": "1" }, body: { error: { code: "SERVICE_UNAVAILABLE", message: "x" } } };
    service.script(LIMITED, unavailable, { status: 200, body: { data: { results: [] } } });
    assert.deepEqual(await client().batch(2, { country: "NL" }, { seed: "s" }), []);
    assert.deepEqual(waits, [3000, 1000]);
    assert.equal(service.seen.length, 3);
    assert.equal(new Set(service.seen.map((s) => s.body)).size, 1); // the body, sent again whole
    assert.deepEqual(JSON.parse(service.seen[0]?.body ?? ""), {
      count: 2,
      filters: { country: "NL" },
      options: { unique: true, seed: "s" },
    });
    assert.equal(service.seen[0]?.authorization, "Bearer ags_x_y");
  });

  it("gives up after its retries, or at once when told to wait too long, with the service's error", async () => {
    waits.length = 0;
    service.script(LIMITED, LIMITED, LIMITED, LIMITED, LIMITED);
    const error = await client().generate("NL").catch((e: unknown) => e);
    assert.ok(error instanceof AgsError);
    assert.deepEqual([error.status, error.code, error.requestId], [429, "RATE_LIMITED", "r1"]);
    assert.equal(service.seen.length, 5);
    assert.deepEqual(waits, [3000, 3000, 3000, 3000]);
    waits.length = 0;
    service.script({ ...LIMITED, headers: { "Retry-After": "3600" } });
    await assert.rejects(client().generate("NL"), AgsError);
    assert.deepEqual(waits, []);
  });

  it("retries a 503 only for a request that reads; a 429 for any", async () => {
    waits.length = 0;
    const unavailable = { status: 503, headers: { "Retry-After": "1" }, body: { error: { code: "SERVICE_UNAVAILABLE", message: "x" } } };
    service.script(unavailable, { status: 200, body: { data: {} } });
    const translated = await client().api.POST("/api/v1/address-translation", {
      body: { addressId: "ad-x", targetLocale: "en" },
    });
    assert.equal(translated.response.status, 200);
    assert.equal(service.seen.length, 2); // translation only reads: sent again
    const write = new Request(`${service.url}/api/v1/admin/tokens`, { method: "POST" });
    assert.equal(retriable(write, 503), false); // may have written: not sent again
    assert.equal(retriable(write, 429), true); // refused before anything was done
    assert.equal(retriable(new Request(`${service.url}/api/v1/generate`), 503), true);
  });

  it("gives up on a request unanswered past its timeout: the service is unreachable", async () => {
    service.script({ status: 200, body: {}, delayMs: 2000 });
    const impatient = new AgsClient({ baseUrl: service.url, timeoutSeconds: 0.2, retries: 0 });
    await assert.rejects(impatient.generate("NL"), AgsUnreachable);
  });

  it("sends the filters as the query", async () => {
    service.script({ status: 200, body: { data: { result: { address: { id: "nl-x" } } } } });
    await client().generate("NL", { seed: "s", complete: true, traits: "unit" });
    const query = new URL(service.seen[0]?.url ?? "", service.url).searchParams;
    assert.deepEqual(Object.fromEntries(query), { country: "NL", seed: "s", complete: "true", traits: "unit" });
  });

  it("says the service is unreachable when nothing answers", async () => {
    const nowhere = new AgsClient({ baseUrl: "http://127.0.0.1:9", retries: 0 });
    await assert.rejects(nowhere.generate("NL"), AgsUnreachable);
  });

  it("refuses a base URL that is not http", () => {
    assert.throws(() => new AgsClient({ baseUrl: "ftp://example.org" }), /http or https/);
  });
});
