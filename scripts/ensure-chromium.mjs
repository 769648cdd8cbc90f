// Run by `npm test` before the suite: the viewer's browser tests drive a real headless Chromium, Debian's
// `chromium` package (no browser download works here). Installs it with apt-get when it is missing and this
// user may (CI runs as root); otherwise says how, and the browser tests fail naming the same command.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean);
if (!candidates.some((path) => existsSync(path))) {
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (root && existsSync("/usr/bin/apt-get")) {
    console.log("[tooltrace] installing Debian's chromium for the viewer's browser tests (apt-get)");
    const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
  } else {
    console.warn("[tooltrace] no Chromium found for the viewer's browser tests: sudo apt-get install -y chromium (or set CHROMIUM_PATH)");
  }
}
