import type { Environment } from '../../domain/environment.js';
import { maskAccountNumber } from '../../domain/identifiers/bank.js';
import type { CustomerView } from '../customers/presenters.js';
import type { PartnerBalances } from './balances.js';
import type { DepositAddress } from './deposit-addresses.js';
import type { Partner, WhitelistedBankAccount, WhitelistedWalletAddress } from './entities.js';

export function presentWalletAddress(entry: WhitelistedWalletAddress) {
  return {
    id: entry.id,
    address: entry.address,
    coin: entry.coin,
    network: entry.network,
    label: entry.label,
    createdAt: entry.createdAt.toISOString(),
  };
}

/** The account number is in clear only in the response that creates the entry. */
export function presentBankAccount(entry: WhitelistedBankAccount, number: 'clear' | 'masked' = 'masked') {
  return {
    id: entry.id,
    accountHolderName: entry.accountHolderName,
    accountHolderAddress: entry.accountHolderAddress,
    beneficiaryBankName: entry.beneficiaryBankName,
    beneficiaryBankAddress: entry.beneficiaryBankAddress,
    beneficiaryBankCountry: entry.beneficiaryBankCountry,
    bankAccountNumber: number === 'clear' ? entry.bankAccountNumber : maskAccountNumber(entry.bankAccountNumber),
    bicSwift: entry.bicSwift,
    fiatCurrency: entry.fiatCurrency,
    createdAt: entry.createdAt.toISOString(),
  };
}

/** A customer as `user_list` shows it: who they are and where their KYC stands, without the hosted link. */
function presentUser(customer: CustomerView) {
  return {
    customer_id: customer.customer_id,
    email: customer.email,
    type: customer.type,
    first_name: customer.first_name,
    last_name: customer.last_name,
    company_name: customer.company_name,
    kycs: { status_breakdown: customer.kycs.status_breakdown, sub_status: customer.kycs.sub_status },
    created_at: customer.created_at,
  };
}

export interface AccountInfo {
  partner: Partner;
  environment: Environment;
  users: CustomerView[];
  walletAddresses: WhitelistedWalletAddress[];
  bankAccounts: WhitelistedBankAccount[];
  depositAddresses: DepositAddress[];
  balances: PartnerBalances;
}

/** The account info under `info` (Encryptus's own spelling of the keys), plus the wallet whitelist. */
export function presentAccountInfo(info: AccountInfo) {
  const { partner, balances } = info;
  return {
    enterpriseName: partner.name,
    clientRepresentiveEmail: partner.email ?? null,
    clientRepresentivePhoneNo: partner.phone ?? null,
    enterpriseLocation: partner.location ?? null,
    client_ID: partner.clientId,
    grant_services: partner.grantServices.join(','),
    active_env: info.environment,
    whitelisted_bankAccount_list: info.bankAccounts.map((entry) => presentBankAccount(entry)),
    whitelisted_walletAddress_list: info.walletAddresses.map(presentWalletAddress),
    user_list: info.users.map(presentUser),
    deposit_addresses: info.depositAddresses,
    reserved_fiat: balances.reservedFiat,
    reserved_crypto: balances.reservedCrypto,
    crypto_threshold: balances.cryptoThreshold,
  };
}
