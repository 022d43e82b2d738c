// Against a running service (AGS_BASE_URL and AGS_TOKEN, as make test gives them): skipped without one.
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { AgsClient } from "../src/client.js";
import { realFaker } from "../src/faker.js";

const live = process.env.AGS_BASE_URL ? {} : { skip: "no service: set AGS_BASE_URL and AGS_TOKEN" };

describe("the client against the service", live, () => {
  const client = new AgsClient();

  it("draws the same address for the same seed, and reads it back by its id", async () => {
    const one = await client.generate("NL", { seed: "ts-kit", complete: true });
    assert.deepEqual(await client.generate("NL", { seed: "ts-kit", complete: true }), one);
    assert.deepEqual(await client.address(one.address.id), one.address);
    assert.ok(one.address.components.postcode);
  });

  it("draws a batch of distinct addresses, and a faker-style view of one", async () => {
    const batch = await client.batch(5, { country: "AD" }, { seed: "ts-kit" });
    assert.equal(new Set(batch.map((r) => r.address.id)).size, 5);
    const fake = await realFaker(client, { country: "AD", seed: "ts-kit" });
    assert.equal(fake.location.countryCode(), "AD");
    assert.match(fake.internet.email(), /@example\.(com|net|org)$/);
  });
});
