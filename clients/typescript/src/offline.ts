// Offline mode: addresses from a file `ags export` wrote (NDJSON, or a JSON array or batch answer;
// its CSV is refused by name). The same seed and filters always pick the same one, with no service
// to ask, here and in the Python kit (the same key, hashed the same way).
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";

import { AgsUnreachable, type GeneratedAddress } from "./client.js";

/** What offline mode can filter by: the country, and components compared case-insensitively. */
export interface OfflineFilters {
  country?: string;
  region?: string;
  city?: string;
  district?: string;
  postcode?: string;
  /** `i/n`: this worker's part (offline: of the file's records, in id order, every n-th from the i-th). */
  partition?: string;
}

/** Where addresses come from: the service (AgsClient), an export file, or one with the other as fallback. */
export interface AddressSource {
  draw(seed: string, filters: OfflineFilters & Record<string, unknown>): Promise<GeneratedAddress>;
}

const COMPONENTS = ["region", "city", "district", "postcode"] as const;

export class Offline implements AddressSource {
  readonly records: GeneratedAddress[];

  constructor(records: Iterable<GeneratedAddress>) {
    this.records = [...records].sort((a, b) => (a.address.id < b.address.id ? -1 : a.address.id > b.address.id ? 1 : 0));
  }

  static async load(...paths: string[]): Promise<Offline> {
    const files = await Promise.all(paths.map(async (path) => parse(path, await readFile(path, "utf8"))));
    return new Offline(files.flat());
  }

  async draw(seed: string, filters: OfflineFilters & Record<string, unknown>): Promise<GeneratedAddress> {
    const online = Object.keys(filters).filter(
      (k) => k !== "country" && k !== "partition" && !(COMPONENTS as readonly string[]).includes(k),
    );
    if (online.some((k) => filters[k] !== undefined)) {
      throw new Error(`offline mode filters by country and components only, not ${online.join(", ")}`);
    }
    const country = (filters.country ?? "US").toUpperCase();
    const matching = part(this.records, filters.partition).filter(
      (r) =>
        r.address.countryCode === country &&
        COMPONENTS.every((name) => {
          const wanted = filters[name];
          return wanted == null || (r.address.components[name] ?? "").toLowerCase() === wanted.toLowerCase();
        }),
    );
    if (matching.length === 0) throw new Error(`no exported address matches ${JSON.stringify(filters)}`);
    // Filters match without case, so their case does not change the draw either.
    const key = [seed, country, ...COMPONENTS.map((name) => (filters[name] ?? "").toLowerCase())].join("\u001f");
    const digest = createHash("sha256").update(key).digest();
    return matching[Number(digest.readBigUInt64BE(0) % BigInt(matching.length))] as GeneratedAddress;
  }
}

/** Part i of n of the records, as the Python kit takes it: workers sharing a file never draw the same one. */
function part(records: GeneratedAddress[], partition: string | undefined): GeneratedAddress[] {
  if (partition === undefined) return records;
  const [index, count] = partition.split("/").map(Number) as [number, number];
  return records.filter((_, n) => n % count === index);
}

/** The service, and the export file when the service cannot be reached. */
export function withFallback(primary: AddressSource, offline: AddressSource): AddressSource {
  return {
    async draw(seed, filters) {
      try {
        return await primary.draw(seed, filters);
      } catch (error) {
        if (error instanceof AgsUnreachable) return offline.draw(seed, filters);
        throw error;
      }
    },
  };
}

const FORMATS = "an export file offline mode reads: NDJSON or JSON (ags export --format ndjson|json)";

function parse(path: string, text: string): GeneratedAddress[] {
  const start = text.replace(/^\uFEFF/, "").trimStart();
  if (!start.startsWith("{") && !start.startsWith("[")) {
    const csv = start.startsWith("id,countryCode,")
      ? ": it is the CSV `ags export --format csv` writes, for spreadsheets and load tools; export again with --format ndjson"
      : "";
    throw new Error(`${path} is not ${FORMATS}${csv}`);
  }
  let whole: unknown;
  try {
    whole = JSON.parse(start); // a JSON array, a batch's or a /generate answer, or a one-line NDJSON file
  } catch {
    // Numbered as an editor numbers them, as the Python kit's message does.
    return text.replace(/^\uFEFF/, "").split("\n").flatMap((line, index) => (line.trim() === "" ? [] : [record(path, index + 1, line)]));
  }
  if (Array.isArray(whole)) return whole as GeneratedAddress[];
  const answer = (whole as { data?: { results?: GeneratedAddress[]; result?: GeneratedAddress } }).data;
  if (answer !== undefined && answer !== null) return answer.results ?? (answer.result ? [answer.result] : []);
  return [whole as GeneratedAddress];
}

function record(path: string, number: number, line: string): GeneratedAddress {
  try {
    return JSON.parse(line) as GeneratedAddress;
  } catch (error) {
    throw new Error(`${path} is not ${FORMATS}: line ${number}: ${(error as Error).message}`);
  }
}
