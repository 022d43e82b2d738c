// A page that asks where and when the customer is sees the drawn address's place: its point, its
// time zone and its country's language.
import { expect, placeOf, testInPlace as test } from "../../src/playwright.js";

const PAGE = `<!doctype html><html lang="en"><title>Where am I</title><output id="where">asking</output>
<script>
navigator.geolocation.getCurrentPosition(
  (p) => { document.getElementById("where").textContent = JSON.stringify({
    latitude: p.coords.latitude, longitude: p.coords.longitude,
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, language: navigator.language }); },
  (e) => { document.getElementById("where").textContent = "refused: " + e.message; });
</script></html>`;

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
