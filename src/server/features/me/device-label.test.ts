import { describe, expect, it } from 'vitest';
import { deviceLabel, UNKNOWN_DEVICE } from './device-label';
import { maskedIp } from './masked-ip';
import { MAX_DEVICE_LABEL_LENGTH } from '../../../contracts/sessions';

// Real user agents of the browsers most people sign in with (late 2026 versions, or close).
const USER_AGENTS: Array<[string, string]> = [
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on Linux'],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36', 'Chrome on Linux'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on Windows'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0', 'Edge on Windows'],
  ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Windows'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15', 'Safari on macOS'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0', 'Opera on macOS'],
  ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on macOS'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', 'Safari on iPhone'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1', 'Chrome on iPhone'],
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15', 'Firefox on iPhone'],
  ['Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.7 Mobile/15E148 Safari/604.1', 'Safari on iPad'],
  ['Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
  ['Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36', 'Samsung Internet on Android'],
  ['Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0', 'Firefox on Android'],
  ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'Chrome on ChromeOS'],
  // An in-app browser: the system is known, the browser is not.
  ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148', 'Browser on iPhone'],
];

describe('deviceLabel: "Chrome on Linux" from a user agent', () => {
  it.each(USER_AGENTS)('%s → %s', (userAgent, label) => {
    expect(deviceLabel(userAgent)).toBe(label);
  });

  it('says "Unknown device" for nothing, a script or garbage, and never echoes what it was sent', () => {
    for (const userAgent of [null, undefined, '', 'curl/8.5.0', 'node', '<script>alert(1)</script>', 'x'.repeat(100_000)]) {
      expect(deviceLabel(userAgent)).toBe(UNKNOWN_DEVICE);
    }
    const hostile = `Mozilla/5.0 (Windows NT 10.0) Firefox/133.0 <img src=x onerror=alert(1)>${'A'.repeat(10_000)}`;
    expect(deviceLabel(hostile)).toBe('Firefox on Windows');
  });

  it('every label fits the contract’s bound', () => {
    for (const [userAgent] of USER_AGENTS) expect(deviceLabel(userAgent).length).toBeLessThanOrEqual(MAX_DEVICE_LABEL_LENGTH);
    expect('Samsung Internet on ChromeOS'.length).toBeLessThanOrEqual(MAX_DEVICE_LABEL_LENGTH);
  });
});

describe('maskedIp: enough to recognise a network, not a household', () => {
  it.each([
    ['203.0.113.195', '203.0.113.x'],
    ['10.0.0.1', '10.0.0.x'],
    ['::ffff:203.0.113.7', '203.0.113.x'],
    ['::FFFF:cb00:7107', '203.0.113.x'],
    ['2001:db8:85a3::8a2e:370:7334', '2001:db8:85a3:x:x:x:x:x'],
    ['2001:0DB8:0000:0042:0000:8A2E:0370:7334', '2001:db8:0:x:x:x:x:x'],
    ['2001:db8::', '2001:db8:0:x:x:x:x:x'],
    ['::1', 'localhost'],
    ['127.0.0.1', 'localhost'],
    ['::ffff:127.0.0.1', 'localhost'],
    ['::2', '0:0:0:x:x:x:x:x'],
    ['fe80::1%eth0', 'fe80:0:0:x:x:x:x:x'],
    ['64:ff9b::203.0.113.7', '64:ff9b:0:x:x:x:x:x'],
  ])('%s → %s', (ip, masked) => {
    expect(maskedIp(ip)).toBe(masked);
  });

  it('is null when nothing, or nothing like an address, was stored', () => {
    for (const ip of [null, undefined, '', 'unknown', '203.0.113', '1.2.3.4.5', '2001:db8:::1', 'g::1']) expect(maskedIp(ip)).toBeNull();
  });
});
