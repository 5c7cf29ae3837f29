import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, toFixedPlaces } from '../../src/domain/money.js';

/** toFixedPlaces pads what needs no rounding and rounds the rest: always what decimal.js's toFixed says. */
describe('toFixedPlaces', () => {
  const digits = fc.stringMatching(/^[0-9]{1,20}$/);
  const amount = fc
    .tuple(fc.boolean(), digits, fc.option(digits, { nil: undefined }))
    .map(([negative, whole, fraction]) => new Decimal(`${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`));

  it('equals toFixed for every amount and number of places', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 18 }), (value, places) => {
        expect(toFixedPlaces(value, places)).toBe(value.toFixed(places));
      }),
      { numRuns: 5000 },
    );
  });

  it('formats the text PostgreSQL stored exactly as its Decimal, with no Decimal made when none rounds', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 18 }), (value, places) => {
        expect(toFixedPlaces(value.toFixed(), places)).toBe(value.toFixed(places));
      }),
      { numRuns: 5000 },
    );
    expect(toFixedPlaces('106.866', 6)).toBe('106.866000');
    expect(toFixedPlaces('0.125', 2)).toBe('0.13');
  });

  it('pads an amount stored at its scale, and rounds one beyond it', () => {
    expect(toFixedPlaces(new Decimal('98.44'), 2)).toBe('98.44');
    expect(toFixedPlaces(new Decimal('100'), 2)).toBe('100.00');
    expect(toFixedPlaces(new Decimal('1.5'), 6)).toBe('1.500000');
    expect(toFixedPlaces(new Decimal('0.125'), 2)).toBe(new Decimal('0.125').toFixed(2));
    expect(toFixedPlaces(new Decimal('7'), 0)).toBe('7');
  });
});
