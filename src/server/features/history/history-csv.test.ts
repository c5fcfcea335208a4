import { describe, expect, it } from 'vitest';
import { csvField, sourceLabel } from './history-csv';

describe('history CSV fields', () => {
  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('defuses text a spreadsheet would run as a formula (CSV injection), but not our numbers', () => {
    expect(csvField('=HYPERLINK("http://evil.example")')).toBe(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField(-5)).toBe('-5');
  });

  it('names sources as the history page does', () => {
    expect(sourceLabel('credit', 'visa')).toBe('Visa Credit');
    expect(sourceLabel('bnpl', 'klarna')).toBe('Klarna BNPL');
    expect(sourceLabel('internal', 'payweave')).toBe('PayWeave card');
  });
});
