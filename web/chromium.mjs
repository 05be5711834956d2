// Debian's Chromium, headless, as the browser test and the measure of a still page start it:
// WebGL in software (SwiftShader), nothing of its own fetched from outside, and a screen of
// `density` device pixels per CSS pixel (with the context's deviceScaleFactor, both are needed).
import { chromium } from "playwright-core";

/// The switches both launches share.
function switches(density) {
  return [
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    "--ignore-gpu-blocklist",
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    `--force-device-scale-factor=${density}`,
  ];
}

export function launchChromium(density) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: switches(density),
  });
}

/// A browser with a profile of its own in `dir`, as a person's is: Chromium offers to install a
/// page only outside an off-the-record profile (which `launchChromium`'s contexts are).
export function launchChromiumWithProfile(dir, density, options) {
  return chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: switches(density),
    ...options,
  });
}
