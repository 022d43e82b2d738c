// The drawn address's place for a browser: where it is (geolocation), its clock (IANA time zone)
// and its country's primary language (BCP 47, CLDR's likely subtags), so a page that reads
// navigator.geolocation, Intl's time zone or navigator.language sees the customer's own.
import type { GeneratedAddress } from "./client.js";

/** Each served country's primary locale (CLDR likely subtags: und-BE is nl-BE, und-HK zh-HK). */
export const PRIMARY_LOCALES: Readonly<Record<string, string>> = {
  AD: "ca-AD", AT: "de-AT", AU: "en-AU", BE: "nl-BE", BR: "pt-BR", CA: "en-CA", CH: "de-CH",
  CN: "zh-CN", CZ: "cs-CZ", DE: "de-DE", DK: "da-DK", ES: "es-ES", FI: "fi-FI", FR: "fr-FR",
  GB: "en-GB", HK: "zh-HK", IS: "is-IS", IT: "it-IT", JP: "ja-JP", KR: "ko-KR", LI: "de-LI",
  MC: "fr-MC", NL: "nl-NL", NO: "nb-NO", PL: "pl-PL", PT: "pt-PT", RU: "ru-RU", SE: "sv-SE",
  SG: "en-SG", TW: "zh-TW", US: "en-US", VN: "vi-VN",
};

/** What Playwright's browser context takes to stand at the address: its options, as `test.use` names them. */
export interface Place {
  geolocation: { latitude: number; longitude: number; accuracy: number };
  permissions: string[];
  timezoneId: string;
  locale: string;
}

/** The address's place: its coordinates (to 10 m), its time zone, its country's primary locale. */
export function placeOf(drawn: GeneratedAddress): Place {
  const { coordinates, timeZone, countryCode } = drawn.address;
  return {
    geolocation: { latitude: coordinates.latitude, longitude: coordinates.longitude, accuracy: 10 },
    permissions: ["geolocation"],
    timezoneId: timeZone,
    locale: PRIMARY_LOCALES[countryCode] ?? `en-${countryCode}`,
  };
}
