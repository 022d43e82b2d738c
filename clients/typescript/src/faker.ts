// A faker-js-style view of one real address and its fictitious profile: the namespaces and method
// names a faker-js user already calls (location.streetAddress(), person.firstName()...), each
// answering from the same drawn record, so the fields of a form agree with one another.
import type { GeneratedAddress, GenerateFilters } from "./client.js";
import type { AddressSource } from "./offline.js";

export interface RealFaker {
  /** The drawn record, as the service answers it. */
  readonly record: GeneratedAddress;
  readonly location: {
    /** The street, number and unit, as the country writes its first address line. */
    streetAddress(): string;
    street(): string;
    buildingNumber(): string;
    secondaryAddress(): string;
    city(): string;
    /** The region; abbreviated: its ISO 3166-2 subdivision code without the country (CA for US-CA). */
    state(options?: { abbreviated?: boolean }): string;
    zipCode(): string;
    /** The country's English name. */
    country(): string;
    countryCode(): string;
    latitude(): number;
    longitude(): number;
    timeZone(): string;
  };
  readonly person: { firstName(): string; lastName(): string; fullName(): string; sex(): string };
  readonly internet: { email(): string };
  readonly phone: { number(): string };
  readonly date: { birthdate(): Date };
}

export function fakerFrom(record: GeneratedAddress): RealFaker {
  const { address, profile } = record;
  const parts = address.components;
  const text = (value: string | null | undefined): string => value ?? "";
  return {
    record,
    location: {
      streetAddress: () => streetLine(address),
      street: () => text(parts.street),
      buildingNumber: () => text(parts.houseNumber),
      secondaryAddress: () => text(parts.unit),
      city: () => text(parts.city),
      state: (options) => text(options?.abbreviated ? parts.regionCode?.split("-")[1] : parts.region),
      zipCode: () => text(parts.postcode),
      country: () => COUNTRY_NAMES.of(address.countryCode) ?? address.countryCode,
      countryCode: () => address.countryCode,
      latitude: () => address.coordinates.latitude,
      longitude: () => address.coordinates.longitude,
      timeZone: () => address.timeZone,
    },
    person: {
      firstName: () => profile.givenName,
      lastName: () => profile.familyName,
      fullName: () => profile.fullName,
      sex: () => profile.gender,
    },
    internet: { email: () => profile.email },
    phone: { number: () => profile.phone.number },
    date: { birthdate: () => new Date(`${profile.dateOfBirth}T00:00:00Z`) },
  };
}

/** Draw one record from `source` (the service or an export file) and view it faker-js-style. */
export async function realFaker(
  source: AddressSource,
  options: GenerateFilters & { country?: string; seed: string },
): Promise<RealFaker> {
  const { seed, ...filters } = options;
  return fakerFrom(await source.draw(seed, filters));
}

/** Address line 1: street, number and unit. China, Japan, Korea and Taiwan write them after the
 * region and city, unspaced but in Korea (as the service formats them); elsewhere the formatted
 * address begins with them, the unit after a comma. */
function streetLine(address: GeneratedAddress["address"]): string {
  const { street, houseNumber, unit } = address.components;
  const parts = [street, houseNumber, unit].filter((part): part is string => Boolean(part));
  if (EAST_ASIAN.has(address.countryCode)) return parts.join(address.countryCode === "KR" ? " " : "");
  const [first = "", second] = address.formattedAddress.split(", ");
  if (!street || !first.includes(street)) return parts.join(" ");
  return unit && second === unit ? `${first}, ${unit}` : first;
}

const EAST_ASIAN = new Set(["CN", "JP", "KR", "TW"]);
const COUNTRY_NAMES = new Intl.DisplayNames(["en"], { type: "region" });
