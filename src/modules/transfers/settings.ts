import type { Config } from '../../config.js';
import { Decimal } from '../../domain/money.js';
import { NETWORK_FEES_USD, sandboxRateSource } from '../../domain/pricing.js';
import type { TransferSettings } from './context.js';
import { crashPointOf } from '../custody/crash-points.js';

/** Money-movement settings from config: the sandbox rate table, limits, quote and deposit windows. */
export function transferSettings(config: Config): TransferSettings {
  return {
    rates: sandboxRateSource({ eur: config.SANDBOX_RATE_EUR, aed: config.SANDBOX_RATE_AED }),
    policy: {
      minUsd: new Decimal(config.TRANSFER_MIN_USD),
      maxUsd: new Decimal(config.TRANSFER_MAX_USD),
      networkFeesUsd: NETWORK_FEES_USD,
    },
    quoteTtlSeconds: config.QUOTE_TTL_SECONDS,
    depositWindowSeconds: config.DEPOSIT_WINDOW_SECONDS,
    payouts: {
      replaceAfterSeconds: config.PAYOUT_REPLACE_AFTER_SECONDS,
      feeCeilingWei: BigInt(config.CHAIN_FEE_CEILING_GWEI) * 1_000_000_000n,
      crashAt: crashPointOf(config),
    },
  };
}
