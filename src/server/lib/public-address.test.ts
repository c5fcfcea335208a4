import { describe, expect, it } from 'vitest';
import { REFUSED_ADDRESSES } from '../../../tests/helpers/refused-addresses';
import { addressRefusal, isPublicAddress } from './public-address';

describe('public addresses', () => {
  it.each(REFUSED_ADDRESSES)('refuses %s as a %s', (address, reason) => {
    expect(addressRefusal(address)).toBe(reason);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '198.17.255.255',
    '198.20.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2001:4860:4860::8888',
    '2001:200::1',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '64:ff9b::101:101',
    '2002:0808:0808::1',
  ])('accepts the public address %s', (address) => {
    expect(addressRefusal(address)).toBeNull();
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['', 'localhost', 'example.com', '256.1.1.1', '1.2.3', '[::1]', '::1::', '2130706433', '0x7f000001'])(
    'refuses %j, which is not an IP address',
    (text) => {
      expect(addressRefusal(text)).toBe('not an IP address');
    },
  );
});
