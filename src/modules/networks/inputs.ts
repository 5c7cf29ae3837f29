import { z } from 'zod';
import { addressOnNetworkSchema, isValidAddress } from '../../domain/identifiers/chain.js';
import { DECIMAL_PATTERN, Decimal, NEGATIVE_DECIMAL_PATTERN, NETWORKS, SCALE, TOKENS, positiveAmountSchema } from '../../domain/money.js';
import { type Problem, acrossFields, isOneOf, refusing } from '../../domain/validation.js';

/**
 * What the faucet mints at most in one call: enough for any test of a transfer (quotes stop well
 * below it), small enough that a loop cannot flood the chain's accounts with noise.
 */
export const FAUCET_MAX_AMOUNT = '1000000';

/** FAUCET_MAX_AMOUNT as the contract states it: 1000000 (zeros after the point allowed), or up to six whole digits; 6 decimals. */
const FAUCET_AMOUNT_PATTERN = `^(?:${FAUCET_MAX_AMOUNT}(?:\\.0{1,${SCALE.usdc}})?|[0-9]{1,${FAUCET_MAX_AMOUNT.length - 1}}(?:\\.[0-9]{1,${SCALE.usdc}})?)$`;

/** A positive decimal of a 6-decimal stablecoin, at most FAUCET_MAX_AMOUNT. */
export function faucetAmountProblem(text: string): Problem | null {
  if (NEGATIVE_DECIMAL_PATTERN.test(text) && text.length <= 41) return { code: 'not_positive', detail: 'must be greater than zero' };
  if (!DECIMAL_PATTERN.test(text) || text.length > 40) return { code: 'invalid_decimal', detail: 'must be a decimal string like "100.25"' };
  const amount = new Decimal(text);
  if (amount.lte(0)) return { code: 'not_positive', detail: 'must be greater than zero' };
  if (amount.decimalPlaces() > SCALE.usdc) return { code: 'too_many_decimals', detail: `has at most ${SCALE.usdc} decimal places` };
  if (amount.gt(FAUCET_MAX_AMOUNT)) return { code: 'too_big', detail: `must be at most ${FAUCET_MAX_AMOUNT} a call` };
  return null;
}

/** The address must be one of the network's. */
const addressOfNetwork = acrossFields(
  (body, report) => {
    const { network, address } = body;
    if (typeof address === 'string' && address.trim() && address.length <= 128 && isOneOf(NETWORKS, network) && !isValidAddress(network, address.trim())) {
      report('address', 'invalid_address', `is not a valid ${network} address`);
    }
  },
  () => addressOnNetworkSchema('network', 'address'),
);

/** Test tokens for an address of the sandbox's chain (POST /v0/sandbox/faucet, mintTestTokens). */
export const FaucetRequest = z
  .strictObject({
    network: z.enum(NETWORKS),
    token: z.enum(TOKENS),
    address: z.string().trim().min(1).max(128),
    amount: z
      .string()
      .superRefine(refusing(faucetAmountProblem))
      // The bound as a pattern (JSON Schema has no maximum for a decimal string): 1000000 itself, or at most six digits.
      .meta({ ...positiveAmountSchema(SCALE.usdc), pattern: FAUCET_AMOUNT_PATTERN, maxLength: 7 + 1 + SCALE.usdc, examples: ['250.00'] }),
  })
  .check(addressOfNetwork);
export type FaucetRequest = z.input<typeof FaucetRequest>;
