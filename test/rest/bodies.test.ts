import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acrossFields, checkInput } from '../../src/domain/validation.js';
import { BankAccountBody } from '../../src/modules/bank-accounts/rest-bodies.js';
import { NewVirtualAccountBody } from '../../src/modules/virtual-accounts/rest-bodies.js';
import { restBodyOf } from '../../src/rest/bodies.js';
import { ibanAccount } from '../support/data/transfers.js';

/** A REST body that only snake-cases a use case's input is derived from it, rules and all. */
const address = ibanAccount().account_holder_address;
/** The shared IBAN account, spelled as a client may: nulls for absent fields, a lower-case BIC, a spaced IBAN. */
const ibanBody = ibanAccount({
  account_holder_business_name: null,
  iban: { bic: 'deutdeff', iban_number: 'DE89 3704 0044 0532 0130 00' },
  us: null,
});
const lines = (input: unknown, schema = BankAccountBody) =>
  checkInput(schema, input)
    .errors.map((e) => `${e.pointer} ${e.code}${e.code === 'not_allowed' ? `: ${e.detail}` : ''}`)
    .sort();

describe('a REST body derived from its domain input', () => {
  it('parses the snake_case body into the use case’s camelCase input, its fields normalised by the domain’s rules', () => {
    expect(checkInput(BankAccountBody, ibanBody)).toEqual({
      data: {
        bankName: 'Deutsche Bank',
        accountHolderType: 'individual',
        accountHolderFirstName: 'Ada',
        accountHolderLastName: 'Lovelace',
        accountHolderBusinessName: undefined,
        accountHolderAddress: { country: 'DE', city: 'Berlin', streetLine1: 'Unter den Linden 1', postalCode: '10117' },
        accountType: 'iban',
        iban: { bic: 'DEUTDEFF', ibanNumber: 'DE89370400440532013000' },
        us: undefined,
      },
      errors: [],
    });
  });

  it('keeps the domain’s defaults', () => {
    const body = { source_currency: 'eur', destination_network: 'polygon' };
    expect(checkInput(NewVirtualAccountBody, body).data).toEqual({ sourceCurrency: 'eur', destinationToken: 'usdc', destinationNetwork: 'polygon' });
  });

  it('takes null for the body’s own optional fields, not inside nested objects', () => {
    expect(lines({ ...ibanBody, account_holder_address: { ...address, state: null } })).toEqual(['/account_holder_address/state invalid_type']);
  });

  it('refuses the domain’s camelCase spelling of a field', () => {
    const { bank_name, ...rest } = ibanBody;
    expect(lines({ ...rest, bankName: bank_name })).toEqual(['/bankName unrecognized_keys', '/bank_name required']);
  });

  it('runs the domain’s rules across fields in the body’s words: snake_case pointers and sentences, with the field errors at once', () => {
    const body = {
      ...ibanBody,
      account_holder_last_name: null,
      account_holder_business_name: 'Acme',
      account_holder_address: { ...address, street_line_1: '' },
      iban: { bic: 'BNPAFRPP', iban_number: 'DE89370400440532013000' },
      us: { account_number: '123', routing_number: '021000021' },
    };
    expect(lines(body)).toEqual([
      '/account_holder_address/street_line_1 too_small',
      '/account_holder_business_name not_allowed: is not allowed for individual account holders',
      '/account_holder_last_name required',
      '/iban/bic bic_country_mismatch',
      '/us not_allowed: is not allowed when account_type is iban',
      '/us/account_number invalid_account_number',
    ]);
  });

  it('refuses an input whose checks it cannot re-spell (only acrossFields rules name their fields)', () => {
    const spelled = z.strictObject({ firstName: z.string() }).check(acrossFields(() => {}));
    expect(() => restBodyOf(spelled)).not.toThrow();
    const opaque = z.strictObject({ firstName: z.string() }).refine(() => true);
    expect(() => restBodyOf(opaque)).toThrow(/only acrossFields rules/);
  });
});
