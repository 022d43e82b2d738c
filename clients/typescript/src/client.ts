// The typed client: openapi-fetch over the types openapi-typescript generates from the served
// OpenAPI description (src/schema.ts, `make clients`), with the token from AGS_TOKEN, the service
// from AGS_BASE_URL, and 429/503 answers retried after the Retry-After the service gives.
import createClient, { type Client } from "openapi-fetch";

import type { components, operations, paths } from "./schema.js";

export type GeneratedAddress = components["schemas"]["GeneratedAddress"];
export type Address = components["schemas"]["Address"];
export type GenerateQuery = NonNullable<operations["generateAddress"]["parameters"]["query"]>;
/** Every /generate filter but the country and the seed, which the helpers take on their own. */
export type GenerateFilters = Omit<GenerateQuery, "country" | "seed">;
export type BatchFilters = components["schemas"]["BatchFilters"];

export const DEFAULT_BASE_URL = "http://127.0.0.1:8000";
// A 429 changed nothing, so any request may be sent again; a 503 may come after a write, so only
// requests that read are: GETs, and the two POSTs that take a body only to read (batch, translation).
const READING_POSTS = ["/api/v1/generate/batch", "/api/v1/address-translation"];

export interface ClientOptions {
  /** The service, without /api/v1 (default: AGS_BASE_URL, else make run's). */
  baseUrl?: string;
  /** A bearer token (default: AGS_TOKEN). */
  token?: string;
  /** How many times a 429 or 503 is retried (default 4). */
  retries?: number;
  /** A Retry-After beyond this many seconds is not waited for: the answer is returned (default 120). */
  maxWaitSeconds?: number;
  /** A request unanswered after this many seconds is given up: AgsUnreachable (default 30). */
  timeoutSeconds?: number;
  fetch?: typeof fetch;
  sleep?: (milliseconds: number) => Promise<void>;
}

/** The service answered an error, in its one JSON shape. */
export class AgsError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = "AgsError";
  }
}

/** No answer from the service (refused, timed out, no route): where offline mode takes over. */
export class AgsUnreachable extends Error {
  constructor(cause: unknown) {
    super(`the service did not answer: ${String(cause)}`, { cause });
    this.name = "AgsUnreachable";
  }
}

/** Seconds to wait from a Retry-After header: delay-seconds or an HTTP date (RFC 9110 10.2.3). */
export function retryAfterSeconds(value: string | null, nowMs: number = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  if (!/[A-Za-z]/.test(value)) return undefined; // "1.5" is neither form (Date.parse reads a year in it)
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** Whether an answer with this status may be waited out and the request sent again. */
export function retriable(request: Request, status: number): boolean {
  if (status === 429) return true;
  const reads = request.method === "GET" || READING_POSTS.some((path) => new URL(request.url).pathname.endsWith(path));
  return status === 503 && reads;
}

/** A fetch that sends a request again, after the Retry-After it was given, while it answers 429
 * (or 503, for a request that only reads), and gives up on one unanswered after `timeoutSeconds`. */
export function retrying(
  inner: typeof fetch,
  retries: number,
  maxWaitSeconds: number,
  sleep: (milliseconds: number) => Promise<void>,
  timeoutSeconds = 30,
): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await inner(request.clone(), { signal: AbortSignal.timeout(timeoutSeconds * 1000) });
      if (!retriable(request, response.status) || attempt >= retries) return response;
      const wait = retryAfterSeconds(response.headers.get("retry-after")) ?? 2 ** attempt;
      if (wait > maxWaitSeconds) return response;
      await response.body?.cancel();
      await sleep(wait * 1000);
    }
  };
}

export class AgsClient {
  /** The generated client, for every operation of the description. */
  readonly api: Client<paths>;

  constructor(options: ClientOptions = {}) {
    const baseUrl = (options.baseUrl ?? process.env.AGS_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    if (!/^https?:\/\//.test(baseUrl)) throw new Error(`the service's URL must be http or https: ${baseUrl}`);
    const token = options.token ?? process.env.AGS_TOKEN;
    const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
    this.api = createClient<paths>({
      baseUrl,
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      fetch: retrying(
        options.fetch ?? globalThis.fetch,
        options.retries ?? 4,
        options.maxWaitSeconds ?? 120,
        sleep,
        options.timeoutSeconds ?? 30,
      ),
    });
  }

  /** One published address and its test profile; the same seed and filters give the same one. */
  async generate(country = "US", options: GenerateFilters & { seed?: string } = {}): Promise<GeneratedAddress> {
    const answer = await reached(this.api.GET("/api/v1/generate", { params: { query: { country, ...options } } }));
    return ok(answer).data.result;
  }

  /** Up to 50 addresses; distinct unless `unique` is false. */
  async batch(
    count: number,
    filters: BatchFilters,
    options: { seed?: string; unique?: boolean } = {},
  ): Promise<GeneratedAddress[]> {
    const body = { count, filters, options: { unique: options.unique ?? true, seed: options.seed } };
    return ok(await reached(this.api.POST("/api/v1/generate/batch", { body }))).data.results;
  }

  /** An address by its stable ID. */
  async address(id: string): Promise<Address> {
    const answer = await reached(this.api.GET("/api/v1/addresses/{id}", { params: { path: { id } } }));
    return ok(answer).data.address;
  }

  /** As `generate`, for a source of addresses (see offline.ts). */
  draw(seed: string, filters: GenerateFilters & { country?: string }): Promise<GeneratedAddress> {
    const { country, ...rest } = filters;
    return this.generate(country ?? "US", { ...rest, seed });
  }
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

async function reached<T>(call: Promise<Answer<T>>): Promise<Answer<T>> {
  try {
    return await call;
  } catch (cause) {
    throw new AgsUnreachable(cause);
  }
}

function ok<T>(answer: Answer<T>): T {
  if (answer.data !== undefined) return answer.data;
  const error = (answer.error as { error?: { code?: string; message?: string; requestId?: string } })?.error;
  throw new AgsError(
    answer.response.status,
    error?.code ?? "UNKNOWN",
    error?.message ?? answer.response.statusText,
    error?.requestId,
  );
}
