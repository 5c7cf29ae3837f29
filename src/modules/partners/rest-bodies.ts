import { z } from 'zod';
import { amountAnswer, named, timestampAnswer, uuidAnswer } from '../../rest/openapi/schemas.js';
import {
  type NewWhitelistedBankAccount,
  type NewWhitelistedWalletAddress,
  addressOnItsNetwork,
  bankAccountFields,
  bicInTheIbansCountry,
  walletAddressFields,
} from './inputs.js';

/**
 * The REST whitelist bodies (Encryptus's camelCase spellings), with the domain's field
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

// ——— Answers (the OpenAPI document's response schemas; presenters.ts builds them) ———

export const WhitelistedWalletAddressAnswer = named(
  'WhitelistedWalletAddress',
  z.strictObject({
    id: uuidAnswer(),
    address: z.string(),
    coin: z.string(),
    network: z.string(),
    label: z.string().nullable(),
    createdAt: timestampAnswer(),
  }),
);

/** `bankAccountNumber` is in clear only in the answer that whitelists it. */
export const WhitelistedBankAccountAnswer = named(
  'WhitelistedBankAccount',
  z.strictObject({
    id: uuidAnswer(),
    accountHolderName: z.string(),
    accountHolderAddress: z.string(),
    beneficiaryBankName: z.string(),
    beneficiaryBankAddress: z.string(),
    beneficiaryBankCountry: z.string(),
    bankAccountNumber: z.string(),
    bicSwift: z.string(),
    fiatCurrency: z.string(),
    createdAt: timestampAnswer(),
  }),
);

/** The account info under `info`, in Encryptus's own spelling of the keys. */
export const AccountInfoAnswer = named(
  'AccountInfo',
  z.strictObject({
    success: z.literal(true),
    status: z.number().int(),
    code: z.literal('EN-SUCCESS-001'),
    message: z.string(),
    info: z.strictObject({
      enterpriseName: z.string(),
      clientRepresentiveEmail: z.string().nullable(),
      clientRepresentivePhoneNo: z.string().nullable(),
      enterpriseLocation: z.string().nullable(),
      client_ID: z.string(),
      grant_services: z.string(),
      active_env: z.enum(['sandbox', 'production']),
      whitelisted_bankAccount_list: z.array(WhitelistedBankAccountAnswer),
      whitelisted_walletAddress_list: z.array(WhitelistedWalletAddressAnswer),
      user_list: z.array(
        z.strictObject({
          customer_id: uuidAnswer(),
          email: z.string(),
          type: z.string(),
          first_name: z.string().nullable(),
          last_name: z.string().nullable(),
          company_name: z.string().nullable(),
          kycs: z.strictObject({
            status_breakdown: z.array(z.strictObject({ currency: z.string(), payment_rails: z.string(), status: z.string() })),
            sub_status: z.string().nullable(),
          }),
          created_at: timestampAnswer(),
        }),
      ),
      deposit_addresses: z.array(z.strictObject({ network: z.string(), address: z.string(), coins: z.array(z.string()) })),
      reserved_fiat: z.array(z.strictObject({ currency: z.string(), balance: amountAnswer() })),
      reserved_crypto: z.array(z.strictObject({ coin: z.string(), balance: amountAnswer() })),
      crypto_threshold: z.array(
        z.strictObject({ coin: z.string(), minimumThreshold: amountAnswer(), currentBalance: amountAnswer(), remainingBalance: amountAnswer() }),
      ),
    }),
  }),
);
