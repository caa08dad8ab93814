/** Debian's Chromium driven by playwright-core for the report tests: one browser, pages that record requests and console errors. */
import { chromium, type Browser, type Page } from "playwright-core";

export const chromiumPath = "/usr/bin/chromium";

/** Launches headless Chromium (no download: the system's); its sandbox cannot start as root. */
export function launchChromium(): Promise<Browser> {
  const isRoot = process.getuid?.() === 0;
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: isRoot ? ["--no-sandbox"] : [] });
}

/** A page and what it did: every request URL, and every console error or uncaught exception. */
export interface WatchedPage {
  page: Page;
  requests: string[];
  errors: string[];
}

/** Opens a page that records its requests and errors. */
export async function openWatchedPage(browser: Browser): Promise<WatchedPage> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  const watched: WatchedPage = { page, requests: [], errors: [] };
  page.on("request", (request) => watched.requests.push(request.url()));
  page.on("console", (message) => {
    if (message.type() === "error") watched.errors.push(message.text());
  });
  page.on("pageerror", (error) => watched.errors.push(error.message));
  return watched;
}
