// A page that asks where and when the customer is sees the drawn address's place: its point, its
// time zone and its country's language.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { expect, placeOf, testInPlace as test } from "../../src/playwright.js";

// The page both kits' browser tests open (clients/testdata/where-am-i.html).
const PAGE = readFileSync(fileURLToPath(new URL("../../../../testdata/where-am-i.html", import.meta.url)), "utf8");

for (const country of ["KR", "NL"]) {
  test.describe(country, () => {
    test.use({ agsCountry: country });

    test("the browser stands at the drawn address", async ({ page, realAddress }) => {
      await page.route("https://shop.test/**", (route) => route.fulfill({ contentType: "text/html", body: PAGE }));
      await page.goto("https://shop.test/");
      await expect(page.locator("#where")).not.toHaveText("asking");
      const seen = JSON.parse((await page.locator("#where").textContent()) ?? "{}");
      const place = placeOf(realAddress);
      expect(seen).toEqual({
        latitude: place.geolocation.latitude,
        longitude: place.geolocation.longitude,
        timeZone: realAddress.address.timeZone,
        language: place.locale,
      });
    });
  });
}
