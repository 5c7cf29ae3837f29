import type { Config } from '../../config.js';
import { Decimal } from '../../domain/money.js';
import { NETWORK_FEES_USD, sandboxRateSource } from '../../domain/pricing.js';
import type { TransferSettings } from './context.js';

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
      // A fault to inject, never a way to run: honoured only under NODE_ENV=test.
      crashAfterSigning: config.NODE_ENV === 'test' && config.TEST_CRASH_AFTER_PAYOUT_SIGNED === 'true',
    },
  };
}
