// Real served records for the offline tests: the answers `make run` gave, as the OpenAPI
// description's examples hold them (chalicelib/api/data/examples.json), never invented ones.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import type { GeneratedAddress } from "../src/client.js";

const EXAMPLES = fileURLToPath(new URL("../../../../chalicelib/api/data/examples.json", import.meta.url));

interface Examples {
  operations: Record<string, { response: { data: { result?: GeneratedAddress; results?: GeneratedAddress[] } } }>;
}

export function servedRecords(): GeneratedAddress[] {
  const examples = JSON.parse(readFileSync(EXAMPLES, "utf8")) as Examples;
  const ops = examples.operations;
  const batch = ops["generateBatch"]?.response.data.results ?? [];
  const singles = ["generateAddress", "generateAddress#jp"].map((name) => ops[name]?.response.data.result);
  return [...batch, ...singles.filter((r): r is GeneratedAddress => r !== undefined)];
}
