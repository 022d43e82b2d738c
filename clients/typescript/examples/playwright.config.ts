import { defineConfig } from "@playwright/test";

// CHROMIUM_PATH: a Chromium of your own (make test uses Debian's); without it, the browser
// `npx playwright install chromium` downloads.
const executablePath = process.env.CHROMIUM_PATH;

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  reporter: "list",
  use: { browserName: "chromium", ...(executablePath ? { launchOptions: { executablePath } } : {}) },
});
