import { z } from 'zod';
import {
  type NewWhitelistedBankAccount,
  type NewWhitelistedWalletAddress,
  addressOnItsNetwork,
  bankAccountFields,
  bicInTheIbansCountry,
  walletAddressFields,
} from './inputs.js';

/**
 * The spec's whitelist bodies (§4.7, Encryptus's camelCase spellings), with the domain's field
 * rules, and their mapping to the use cases' inputs. Domain pointers come back through PARTNER_POINTERS.
 */

/** The body's names are the domain's: each domain pointer keeps its spelling (withRestPointers would snake-case it). */
export const PARTNER_POINTERS = Object.fromEntries(
  [...Object.keys(walletAddressFields), ...Object.keys(bankAccountFields)].map((field) => [`/${field}`, `/${field}`]),
);

export const WhitelistWalletAddressBody = z
  .strictObject({
    address: walletAddressFields.address,
    coin: walletAddressFields.coin,
    network: walletAddressFields.network,
    label: walletAddressFields.label,
  })
  .check(addressOnItsNetwork());

export const WhitelistBankAccountBody = z
  .strictObject({
    accountHolderName: bankAccountFields.accountHolderName,
    accountHolderAddress: bankAccountFields.accountHolderAddress,
    beneficiaryBankName: bankAccountFields.beneficiaryBankName,
    beneficiaryBankAddress: bankAccountFields.beneficiaryBankAddress,
    beneficiaryBankCountry: bankAccountFields.beneficiaryBankCountry,
    bankAccountNumber: bankAccountFields.bankAccountNumber,
    bicSwift: bankAccountFields.bicSwift,
    fiatCurrency: bankAccountFields.fiatCurrency,
  })
  .check(bicInTheIbansCountry());

export const walletAddressOf = (body: z.infer<typeof WhitelistWalletAddressBody>): NewWhitelistedWalletAddress => ({
  address: body.address,
  coin: body.coin,
  network: body.network,
  label: body.label,
});

export const bankAccountOf = (body: z.infer<typeof WhitelistBankAccountBody>): NewWhitelistedBankAccount => ({
  accountHolderName: body.accountHolderName,
  accountHolderAddress: body.accountHolderAddress,
  beneficiaryBankName: body.beneficiaryBankName,
  beneficiaryBankAddress: body.beneficiaryBankAddress,
  beneficiaryBankCountry: body.beneficiaryBankCountry,
  bankAccountNumber: body.bankAccountNumber,
  bicSwift: body.bicSwift,
  fiatCurrency: body.fiatCurrency,
});
