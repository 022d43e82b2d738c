// A Playwright fixture: `realAddress` (and `realFaker`), drawn with the test's title as the seed, so
// a rerun of a test gets the same address while the service's snapshot lasts.
//
//   import { test, expect } from "ags-testkit/playwright";
//   test.use({ agsCountry: "NL" });
//   test("checkout accepts a Dutch address", async ({ page, realFaker }) => { ... });
import { test as base } from "@playwright/test";

import { AgsClient, type GeneratedAddress, type GenerateFilters } from "./client.js";
import { fakerFrom, type RealFaker } from "./faker.js";
import { Offline, withFallback, type AddressSource } from "./offline.js";
import { placeOf } from "./place.js";

export interface RealAddressOptions {
  /** The country to draw from (default US). */
  agsCountry: string;
  /** More /generate filters (city, postcode, traits, propertyType...). */
  agsFilters: GenerateFilters;
  /** An export file (`ags export`) to draw from when the service cannot be reached (default: AGS_OFFLINE_FILE). */
  agsOfflineFile: string | undefined;
}

export interface RealAddressFixtures {
  realAddress: GeneratedAddress;
  realFaker: RealFaker;
  /** This worker's part of the pool, `i/n` (its parallel index of the run's workers): workers of one run never draw the same address. */
  agsPartition: string;
}

export const test = base.extend<RealAddressFixtures & RealAddressOptions>({
  agsCountry: ["US", { option: true }],
  agsFilters: [{}, { option: true }],
  agsOfflineFile: [process.env.AGS_OFFLINE_FILE, { option: true }],
  agsPartition: async ({}, use, testInfo) => {
    await use(partitionOf(testInfo.parallelIndex, testInfo.config.workers));
  },
  realAddress: async ({ agsCountry, agsFilters, agsOfflineFile, agsPartition }, use, testInfo) => {
    const online = new AgsClient();
    const source: AddressSource = agsOfflineFile ? withFallback(online, await Offline.load(agsOfflineFile)) : online;
    const filters = { ...agsFilters, country: agsCountry, partition: agsPartition };
    await use(await source.draw(seedOf(testInfo.titlePath), filters));
  },
  realFaker: async ({ realAddress }, use) => {
    await use(fakerFrom(realAddress));
  },
});

/**
 * `test` whose browser context stands at the drawn address: its geolocation (permission granted),
 * its time zone and its country's primary locale, for pages that read where and when the customer is.
 *
 *   import { testInPlace as test, expect } from "ags-testkit/playwright";
 */
export const testInPlace = test.extend({
  geolocation: async ({ realAddress }, use) => {
    await use(placeOf(realAddress).geolocation);
  },
  permissions: async ({ realAddress }, use) => {
    await use(placeOf(realAddress).permissions);
  },
  timezoneId: async ({ realAddress }, use) => {
    await use(placeOf(realAddress).timezoneId);
  },
  locale: async ({ realAddress }, use) => {
    await use(placeOf(realAddress).locale);
  },
});

/** A worker's part: `parallelIndex/workers` (0/1, the whole pool, with one worker). */
export function partitionOf(parallelIndex: number, workers: number): string {
  return `${parallelIndex}/${Math.max(1, workers)}`;
}

/** The seed a test draws with: its title path (file, describe blocks, title). */
export function seedOf(titlePath: readonly string[]): string {
  return titlePath.join(" › ");
}

export { expect } from "@playwright/test";
export { placeOf, PRIMARY_LOCALES, type Place } from "./place.js";
