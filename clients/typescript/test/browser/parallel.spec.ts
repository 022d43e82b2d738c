// Four workers export up to 200 addresses each, of one filter with one seed, through their own
// agsPartition; each writes what it drew to $AGS_SLICES/<partition>.json for the caller to compare.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

import { AgsClient } from "../../src/index.js";
import { expect, test } from "../../src/playwright.js";

for (const n of [1, 2, 3, 4]) {
  test(`worker slice ${n}`, async ({ agsPartition }) => {
    const client = new AgsClient();
    const query = { country: "AD", seed: "one-run", partition: agsPartition, pageSize: 200, format: "json" as const };
    const answer = await client.api.GET("/api/v1/export", { params: { query } });
    expect(answer.response.status).toBe(200);
    const page = answer.data as { data: { results: { address: { id: string } }[] } };
    const ids = page.data.results.map((r) => r.address.id);
    writeFileSync(join(process.env.AGS_SLICES ?? ".", `${agsPartition.replace("/", "-of-")}.json`), JSON.stringify(ids));
  });
}
