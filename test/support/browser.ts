import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium), or CHROMIUM_PATH; browser tests skip without it. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium for page tests. The machine has no network: background fetches, QUIC and
 * component updates are off, and loopback pages may be framed or fetched from other origins
 * (LocalNetworkAccessChecks) so the tests decide what the page's own headers allow.
 */
export function launchChromium(extraArgs: string[] = ['--disable-features=LocalNetworkAccessChecks']): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}
