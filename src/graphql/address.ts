import type { RecordedAddress } from '../domain/address.js';
import { builder } from './builder.js';

export const AddressRef = builder.objectRef<RecordedAddress>('Address').implement({
  fields: (t) => ({
    country: t.exposeString('country', { description: 'ISO 3166-1 alpha-2' }),
    city: t.exposeString('city'),
    streetLine1: t.exposeString('street_line_1'),
    // Null only for a customer address taken from its KYB business address, which has none.
    postalCode: t.exposeString('postal_code', { nullable: true }),
    state: t.exposeString('state', { nullable: true }),
  }),
});

export const AddressInput = builder.inputType('AddressInput', {
  fields: (t) => ({
    country: t.string({ required: true }),
    city: t.string({ required: true }),
    streetLine1: t.string({ required: true }),
    postalCode: t.string({ required: true }),
    state: t.string(),
  }),
});
