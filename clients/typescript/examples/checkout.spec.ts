// The README's quickstart: a checkout form filled with a real Dutch address, the same one on every
// rerun of this test (its title is the seed), and the order placed with what was typed.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

import { AgsClient } from "ags-testkit";
import { expect, seedOf, test } from "ags-testkit/playwright";

test.use({ agsCountry: "NL", agsFilters: { complete: true } });

test("a Dutch customer places an order", async ({ page, realFaker }, testInfo) => {
  // testInfo.file, not import.meta: the same test runs in CommonJS and ES-module projects.
  await page.setContent(readFileSync(join(dirname(testInfo.file), "checkout.html"), "utf8"));
  await page.getByLabel("Full name").fill(realFaker.person.fullName());
  await page.getByLabel("Email").fill(realFaker.internet.email());
  await page.getByLabel("Phone").fill(realFaker.phone.number());
  await page.getByLabel("Address line 1").fill(realFaker.location.streetAddress());
  await page.getByLabel("Postcode").fill(realFaker.location.zipCode());
  await page.getByLabel("City").fill(realFaker.location.city());
  await page.getByLabel("Country").selectOption(realFaker.location.countryCode());
  await page.getByRole("button", { name: "Place order" }).click();

  const placed = JSON.parse((await page.locator("#placed").textContent()) ?? "{}");
  expect(placed).toEqual({
    name: realFaker.person.fullName(),
    email: realFaker.internet.email(),
    phone: realFaker.phone.number(),
    line1: realFaker.location.streetAddress(),
    postcode: realFaker.location.zipCode(),
    city: realFaker.location.city(),
    country: "NL",
  });
  expect(placed.postcode).not.toBe(""); // complete: a form with the Dutch postal rules accepts it
  // The seed is the test's title: a rerun draws this address again.
  const again = await new AgsClient().generate("NL", { complete: true, seed: seedOf(testInfo.titlePath) });
  expect(again.address.id).toBe(realFaker.record.address.id);
});
