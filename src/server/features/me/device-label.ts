// Settings → Security → Signed-in devices (docs/decisions/164): "Chrome on Linux" from a stored
// user agent. Small on purpose: the browsers and systems most people sign in with, checked in an
// order that gets past the names browsers borrow from each other (every Chrome says "Safari",
// Edge and Opera say "Chrome"). The label is built only from the fixed names below, so nothing the
// client sent is ever echoed back, whatever its length or content.

export const UNKNOWN_DEVICE = 'Unknown device';

/** Only the start of a user agent is looked at: the tokens that matter come early. */
const MAX_USER_AGENT_SCANNED = 512;

// First match wins. A token that another browser also sends must come after that browser.
const BROWSERS: ReadonlyArray<readonly [name: string, pattern: RegExp]> = [
  ['Edge', /\bEdg(?:e|A|iOS)?\//],
  ['Opera', /\bOPR\/|\bOPT\/|\bOpera\b/],
  ['Samsung Internet', /\bSamsungBrowser\//],
  ['Vivaldi', /\bVivaldi\//],
  ['Yandex Browser', /\bYaBrowser\//],
  ['Firefox', /\bFirefox\/|\bFxiOS\//],
  ['Chromium', /\bChromium\//],
  ['Chrome', /\b(?:Headless)?Chrome\/|\bCriOS\//],
  ['Safari', /\bVersion\/[\d.]+.*\bSafari\//],
];

const SYSTEMS: ReadonlyArray<readonly [name: string, pattern: RegExp]> = [
  ['iPhone', /\biPhone\b/],
  ['iPad', /\biPad\b/],
  ['Android', /\bAndroid\b/],
  ['Windows', /\bWindows\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['macOS', /\bMacintosh\b|\bMac OS X\b/],
  ['Linux', /\bLinux\b|\bX11\b/],
];

function firstMatch(table: ReadonlyArray<readonly [string, RegExp]>, text: string): string | null {
  for (const [name, pattern] of table) if (pattern.test(text)) return name;
  return null;
}

/** "Chrome on Linux", "Safari on iPhone", "Firefox", "Browser on Android", or "Unknown device". */
export function deviceLabel(userAgent: string | null | undefined): string {
  if (!userAgent) return UNKNOWN_DEVICE;
  const text = userAgent.slice(0, MAX_USER_AGENT_SCANNED);
  const browser = firstMatch(BROWSERS, text);
  const system = firstMatch(SYSTEMS, text);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `Browser on ${system}`;
  return UNKNOWN_DEVICE;
}
