import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { AgsUnreachable, type GeneratedAddress } from "../src/client.js";
import { fakerFrom } from "../src/faker.js";
import { Offline, withFallback, type AddressSource } from "../src/offline.js";
import { servedRecords } from "./examples.js";

const records = servedRecords();
const VECTORS = fileURLToPath(new URL("../../../testdata/offline_draws.json", import.meta.url));

async function written(name: string, text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), "ags-")), name);
  await writeFile(path, text);
  return path;
}

describe("offline mode", () => {
  it("reads what ags export writes, as NDJSON or as JSON, the same records either way", async () => {
    const ndjson = await Offline.load(await written("a.ndjson", records.map((r) => JSON.stringify(r)).join("\n") + "\n"));
    const json = await Offline.load(await written("a.json", JSON.stringify(records)));
    assert.equal(ndjson.records.length, records.length);
    assert.deepEqual(ndjson.records, json.records);
  });

  it("draws the same record for the same seed and filters, and only a matching one", async () => {
    const offline = new Offline(records);
    const country = records[0]?.address.countryCode ?? "";
    const first = await offline.draw("seed-1", { country });
    assert.deepEqual(await offline.draw("seed-1", { country }), first);
    assert.equal(first.address.countryCode, country);
    const drawn = new Set<string>();
    for (let n = 0; n < 50; n++) drawn.add((await offline.draw(`seed-${n}`, { country })).address.id);
    assert.equal(drawn.size, records.filter((r) => r.address.countryCode === country).length); // every one is reachable
    const city = first.address.components.city ?? "";
    const inCity = await offline.draw("x", { country, city: city.toUpperCase() });
    assert.equal(inCity.address.components.city, city);
    assert.deepEqual(await offline.draw("x", { country, city: city.toLowerCase() }), inCity); // case: same draw
    await assert.rejects(offline.draw("x", { country: "ZZ" }), /no exported address/);
    await assert.rejects(offline.draw("x", { country, q: "Main" }), /country and components only/);
  });

  it("draws what the Python kit draws from the same file, seeds and filters", async () => {
    // clients/testdata/offline_draws.json: clients/python/tests/test_testkit_offline.py holds its kit to it too.
    const vectors = JSON.parse(readFileSync(VECTORS, "utf8")) as {
      records: GeneratedAddress[];
      cases: { seed: string; filters: Record<string, string>; drawn: string }[];
    };
    const offline = new Offline(vectors.records);
    for (const { seed, filters, drawn } of vectors.cases) {
      assert.equal((await offline.draw(seed, filters)).address.id, drawn, JSON.stringify({ seed, filters }));
    }
    const nothing = { country: "AD", city: null } as unknown as Record<string, string>; // null: not given, as in Python
    assert.equal((await offline.draw("signup", nothing)).address.id, vectors.cases[0]?.drawn);
  });

  it("numbers a broken NDJSON line as an editor does, and reads a saved /generate answer", async () => {
    const garbled = await written("garbled.ndjson", '{"address": {}}\n\n{"addr\n');
    await assert.rejects(Offline.load(garbled), /garbled\.ndjson is not .*: line 3: /);
    const one = records[0] as GeneratedAddress;
    const saved = await Offline.load(await written("one.json", JSON.stringify({ data: { result: one } })));
    assert.deepEqual(saved.records, [one]);
  });

  it("refuses a CSV export by name, with the formats it reads", async () => {
    const csv = await written("jp.csv", "id,countryCode,formattedAddress\r\njp-1,JP,x\r\n");
    await assert.rejects(Offline.load(csv), /jp\.csv is not an export file offline mode reads: NDJSON or JSON.*--format ndjson/);
  });

  it("takes over when the service is unreachable, and only then", async () => {
    const offline = new Offline(records);
    const unreachable: AddressSource = { draw: () => Promise.reject(new AgsUnreachable("refused")) };
    const refusing: AddressSource = { draw: () => Promise.reject(new Error("400 INVALID_REQUEST")) };
    const country = records[0]?.address.countryCode ?? "";
    assert.deepEqual(await withFallback(unreachable, offline).draw("s", { country }), await offline.draw("s", { country }));
    await assert.rejects(withFallback(refusing, offline).draw("s", { country }), /INVALID_REQUEST/);
  });
});

describe("the faker-js-style view", () => {
  it("answers every field from the one record", () => {
    for (const record of records) {
      const fake = fakerFrom(record);
      const { address, profile } = record;
      assert.equal(fake.person.fullName(), profile.fullName);
      assert.equal(fake.internet.email(), profile.email);
      assert.equal(fake.phone.number(), profile.phone.number);
      assert.equal(fake.location.zipCode(), address.components.postcode ?? "");
      assert.equal(fake.location.city(), address.components.city ?? "");
      assert.equal(fake.location.countryCode(), address.countryCode);
      assert.equal(fake.location.country(), { AD: "Andorra", JP: "Japan" }[address.countryCode]);
      assert.equal(fake.location.timeZone(), address.timeZone);
      const { street, houseNumber } = address.components;
      const line = address.countryCode === "JP" ? `${street}${houseNumber}` : `${street} ${houseNumber}`;
      assert.equal(fake.location.streetAddress(), line); // never the postcode, region or city
      assert.equal(fake.location.state({ abbreviated: true }), address.components.regionCode?.split("-")[1]);
      assert.equal(fake.date.birthdate().toISOString().slice(0, 10), profile.dateOfBirth);
    }
  });
});
