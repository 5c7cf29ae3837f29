import type { RecordedAddress } from '../../domain/address.js';
import { builder } from '../builder.js';

export const AddressRef = builder.objectRef<RecordedAddress>('Address').implement({
  description: 'A postal address',
  fields: (t) => ({
    country: t.exposeString('country', { description: 'ISO 3166-1 alpha-2' }),
    city: t.exposeString('city', { description: 'City or town' }),
    streetLine1: t.exposeString('street_line_1', { description: 'Street and number (REST: street_line_1)' }),
    // Null only for a customer address taken from its KYB business address, which has none.
    postalCode: t.exposeString('postal_code', {
      nullable: true,
      description: "Postal code; null only for a customer's address taken from its KYB business address, which has none",
    }),
    state: t.exposeString('state', { nullable: true, description: 'State, province or region; null when none was given' }),
  }),
});

export const AddressInput = builder.inputType('AddressInput', {
  description: 'A postal address',
  fields: (t) => ({
    country: t.string({ required: true, description: 'ISO 3166-1 alpha-2, upper case, e.g. "DE"' }),
    city: t.string({ required: true, description: 'City or town' }),
    streetLine1: t.string({ required: true, description: 'Street and number' }),
    postalCode: t.string({ required: true, description: 'Postal code' }),
    state: t.string({ description: 'State, province or region (optional)' }),
  }),
});
