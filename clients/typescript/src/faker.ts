// A faker-js-style view of one real address and its fictitious profile: the namespaces and method
// names a faker-js user already calls (location.streetAddress(), person.firstName()...), each
// answering from the same drawn record, so the fields of a form agree with one another.
import type { GeneratedAddress, GenerateFilters } from "./client.js";
import type { AddressSource } from "./offline.js";

export interface RealFaker {
  /** The drawn record, as the service answers it. */
  readonly record: GeneratedAddress;
  readonly location: {
    /** The number, street and unit, as the country writes its first address line. */
    streetAddress(): string;
    street(): string;
    buildingNumber(): string;
    secondaryAddress(): string;
    city(): string;
    state(): string;
    stateAbbr(): string;
    zipCode(): string;
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
      state: () => text(parts.region),
      stateAbbr: () => text(parts.regionCode?.split("-")[1]),
      zipCode: () => text(parts.postcode),
      country: () => address.countryCode,
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

/** The formatted address's first part up to the postcode or city: the line a form's "Address line 1" takes. */
function streetLine(address: GeneratedAddress["address"]): string {
  const first = address.formattedAddress.split(",")[0]?.trim();
  const { street, houseNumber } = address.components;
  return first && street && first.includes(street) ? first : [houseNumber, street].filter(Boolean).join(" ");
}
