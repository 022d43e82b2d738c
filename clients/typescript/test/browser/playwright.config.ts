// The kit's own Playwright runs (tests/integration/test_typescript_testkit.py): four workers at
// once, each drawing from its own partition, and pages that read where and when the customer is.
import { defineConfig } from "@playwright/test";

const executablePath = process.env.CHROMIUM_PATH;

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.js",
  workers: 4,
  fullyParallel: true,
  reporter: "list",
  use: { browserName: "chromium", ...(executablePath ? { launchOptions: { executablePath } } : {}) },
});
