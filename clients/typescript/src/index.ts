export {
  AgsClient,
  AgsError,
  AgsUnreachable,
  DEFAULT_BASE_URL,
  retriable,
  retrying,
  retryAfterSeconds,
  type Address,
  type BatchFilters,
  type ClientOptions,
  type GenerateFilters,
  type GenerateQuery,
  type GeneratedAddress,
} from "./client.js";
export { fakerFrom, realFaker, type RealFaker } from "./faker.js";
export { Offline, withFallback, type AddressSource, type OfflineFilters } from "./offline.js";
export { placeOf, PRIMARY_LOCALES, type Place } from "./place.js";
export type { components, operations, paths } from "./schema.js";
