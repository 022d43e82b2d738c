// Every public operation through openapi-fetch, typed by what openapi-typescript generates from the
// served document (schema.d.ts, written by the test), as a tester would call them. tsc --strict
// checks it; run with node against the stack (AGS_BASE_URL, AGS_TOKEN), each call must answer 2xx.
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const client = createClient<paths>({
  baseUrl: process.env.AGS_BASE_URL ?? "",
  headers: { Authorization: `Bearer ${process.env.AGS_TOKEN}` },
});

async function main(): Promise<number> {
  const one = await client.GET("/api/v1/generate", { params: { query: { country: "AD", seed: "clients" } } });
  const addressId = one.data?.data.result.address.id ?? "missing";
  const answers: Record<string, { response: Response }> = {
    getHealth: await client.GET("/api/v1/health"),
    getReady: await client.GET("/api/v1/ready"),
    listCountries: await client.GET("/api/v1/countries"),
    listAvailability: await client.GET("/api/v1/availability"),
    getCoverage: await client.GET("/api/v1/coverage", { params: { query: { country: "AD" } } }),
    getDataHealth: await client.GET("/api/v1/data-health"),
    getClientContext: await client.GET("/api/v1/client-context", { params: { query: { ip: "81.2.69.142" } } }),
    searchLocations: await client.GET("/api/v1/locations/search", {
      params: { query: { country: "AD", field: "city", q: "Andorra" } },
    }),
    listLocationChildren: await client.GET("/api/v1/locations/hierarchy", {
      params: { query: { country: "AD", parentType: "country", childType: "region" } },
    }),
    generateAddress: one,
    generateBatch: await client.POST("/api/v1/generate/batch", {
      body: { count: 3, filters: { country: "NL" }, options: { seed: "clients" } },
    }),
    getAddress: await client.GET("/api/v1/addresses/{id}", { params: { path: { id: addressId } } }),
    translateAddress: await client.POST("/api/v1/address-translation", {
      body: { addressId, targetLocale: "ja" },
    }),
    exportAddresses: await client.GET("/api/v1/export", {
      params: { query: { country: "AD", pageSize: 5, seed: "clients" } },
    }),
  };
  const failed = Object.entries(answers).filter(([, a]) => !a.response.ok);
  for (const [name, a] of Object.entries(answers)) console.log(name, a.response.status);
  console.log(`${Object.keys(answers).length} operations, ${failed.length} failed`);
  return failed.length ? 1 : 0;
}

main().then((code) => process.exit(code));
