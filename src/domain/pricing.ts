import { type FieldError, UnprocessableError, ValidationError, fieldError } from './errors.js';
import type { Problem } from './validation.js';
import { type Asset, DECIMAL_PATTERN, Decimal, NEGATIVE_DECIMAL_PATTERN, type Network, SCALE, roundPaid, roundReceived } from './money.js';

/**
 * Quote maths: rates, fees and amounts in both directions. Pure and exact: every amount is a
 * Decimal computed with 50 significant digits and rounded once, to its asset's unit, by the
 * rule for money — what the customer pays rounds up, what the customer receives rounds down.
 */

/** decimal.js keeps 20 significant digits by default; an amount times a rate needs more. */
const Exact = Decimal.clone({ precision: 50 });
const exact = (value: Decimal.Value) => new Exact(value.toString());

/** Rates are quoted to 8 decimal places; the quoted rate is exactly the rate applied. */
export const RATE_SCALE = 8;

/** Where rates come from. `rate(from, to)` is how many units of `to` one unit of `from` buys. */
export interface RateSource {
  rate(from: Asset, to: Asset): Decimal;
}

/** US dollars per unit of each asset; the sandbox's whole market. */
export type UsdValues = Record<Asset, Decimal>;

/** The default source: a fixed table (USD 1; EUR and AED configured; USDC and USDT at par with USD). */
export function sandboxRateSource(table: { eur: Decimal.Value; aed: Decimal.Value }): RateSource {
  const usd: UsdValues = { usd: exact(1), usdc: exact(1), usdt: exact(1), eur: exact(table.eur), aed: exact(table.aed) };
  for (const [asset, value] of Object.entries(usd)) {
    if (!value.isFinite() || value.lte(0)) throw new Error(`sandbox rate of ${asset} must be positive`);
  }
  return { rate: (from, to) => usd[from].div(usd[to]) };
}

/** What Ramp pays on chain per transfer, in US dollars (sandbox figures of a typical stablecoin transfer). */
export const NETWORK_FEES_USD: Record<Network, string> = {
  ethereum: '2.00',
  polygon: '0.05',
  base: '0.05',
  arbitrum: '0.10',
  solana: '0.02',
  tron: '1.00',
};

export interface PricingPolicy {
  /** Smallest and largest transfer, valued in US dollars. */
  minUsd: Decimal;
  maxUsd: Decimal;
  networkFeesUsd: Record<Network, Decimal.Value>;
}

export type QuoteSide = 'source' | 'destination';

export interface QuoteRequest {
  source: Asset;
  destination: Asset;
  /** The chain leg of the transfer: on-ramp the destination network, off-ramp the source network. */
  network: Network;
  side: QuoteSide;
  /** The amount of `side`, already checked by `parseAmounts`. */
  amount: Decimal;
  platformFeeBps: number;
  /** `developerFeePercent`: 1.5 means 1.5 % of the source amount. */
  developerFeePercent: Decimal;
}

export interface FeeParts {
  platform: Decimal;
  developer: Decimal;
  network: Decimal;
}

export interface PricedQuote {
  sourceAmount: Decimal;
  destinationAmount: Decimal;
  exchangeRate: Decimal;
  /** Every fee is charged in the source asset, out of the source amount. */
  fees: FeeParts;
  feeAmount: Decimal;
}

const unit = (asset: Asset) => exact(1).div(exact(10).pow(SCALE[asset]));
const sumFees = (f: FeeParts) => f.platform.add(f.developer).add(f.network);

const throwing = (pointer: string, problem: Problem | null) => {
  if (problem) throw new ValidationError([fieldError(pointer, problem.code, problem.detail)]);
};

/** How a face names a quote's two amounts (the domain: `sourceAmount`, `destinationAmount`). */
export interface AmountFields {
  source: string;
  destination: string;
}
const DOMAIN_AMOUNTS: AmountFields = { source: 'sourceAmount', destination: 'destinationAmount' };

/**
 * Exactly one of the two amounts sets the direction of the calculation; the problems of the
 * given ones (none when exactly one is given), pointing at the fields as `names` spells them.
 */
export function quoteSideProblems(given: { source: boolean; destination: boolean }, names: AmountFields = DOMAIN_AMOUNTS): FieldError[] {
  if (given.source === given.destination) {
    const detail = `exactly one of ${names.source} and ${names.destination} is required`;
    const code = given.source ? 'mutually_exclusive' : 'required';
    return [fieldError(`/${names.source}`, code, detail), fieldError(`/${names.destination}`, code, detail)];
  }
  return [];
}

/**
 * Each amount must be a positive decimal string with no more places than its asset has.
 * `asset` unknown (the request named none we know): only the form and the sign are checked.
 */
export function amountProblem(text: string, asset: Asset | undefined): Problem | null {
  if (NEGATIVE_DECIMAL_PATTERN.test(text) && text.length <= 41) return { code: 'not_positive', detail: 'must be greater than zero' };
  if (!DECIMAL_PATTERN.test(text) || text.length > 40) return { code: 'invalid_decimal', detail: 'must be a decimal string like "100.25"' };
  const amount = exact(text);
  if (amount.lte(0)) return { code: 'not_positive', detail: 'must be greater than zero' };
  if (asset && amount.decimalPlaces() > SCALE[asset]) return { code: 'too_many_decimals', detail: `${asset} has at most ${SCALE[asset]} decimal places` };
  return null;
}

/** The side and amount of a quote request whose amounts `quoteSideProblems` and `amountProblem` accept. */
export function parseAmounts(
  input: { sourceAmount?: string | undefined; destinationAmount?: string | undefined },
  assets: { source: Asset; destination: Asset },
): { side: QuoteSide; amount: Decimal } {
  const problems = quoteSideProblems({ source: input.sourceAmount !== undefined, destination: input.destinationAmount !== undefined });
  if (problems.length) throw new ValidationError(problems);
  const side = input.sourceAmount !== undefined ? 'source' : 'destination';
  return { side, amount: parseAmount(input[`${side}Amount`]!, assets[side], `/${side}Amount`) };
}

/**
 * One amount of `asset`: a positive decimal string with no more places than the asset has.
 * `pointer` names the input field it came from, so errors point at what the caller sent.
 */
export function parseAmount(text: string, asset: Asset, pointer: string): Decimal {
  throwing(pointer, amountProblem(text, asset));
  return exact(text);
}

/** `developerFeePercent`: a non-negative decimal of at most 100 with at most 8 decimal places (as on virtual accounts). */
export function developerFeePercentProblem(text: string): Problem | null {
  if (!DECIMAL_PATTERN.test(text) || text.length > 20) return { code: 'invalid_decimal', detail: 'must be a non-negative decimal such as "0.5"' };
  const value = exact(text);
  if (value.gt(100)) return { code: 'too_big', detail: 'must be at most 100' };
  if (value.decimalPlaces() > 8) return { code: 'too_precise', detail: 'must have at most 8 decimal places' };
  return null;
}

export function parseDeveloperFeePercent(text: string | undefined, pointer = '/developerFeePercent'): Decimal {
  if (text === undefined) return exact(0);
  throwing(pointer, developerFeePercentProblem(text));
  return exact(text);
}

/** Fees of a source amount, each rounded up to the source asset's unit (the customer pays them). */
function feesOf(request: QuoteRequest, sourceAmount: Decimal, rates: RateSource, policy: PricingPolicy): FeeParts {
  const usdToSource = exact(rates.rate('usd', request.source));
  return {
    platform: roundPaid(sourceAmount.mul(request.platformFeeBps).div(10_000), request.source),
    developer: roundPaid(sourceAmount.mul(request.developerFeePercent).div(100), request.source),
    network: roundPaid(exact(policy.networkFeesUsd[request.network]).mul(usdToSource), request.source),
  };
}

/** By source: fees come out of the source amount, the rest converts and rounds down. */
function forward(request: QuoteRequest, sourceAmount: Decimal, rate: Decimal, rates: RateSource, policy: PricingPolicy) {
  const fees = feesOf(request, sourceAmount, rates, policy);
  const net = sourceAmount.sub(sumFees(fees));
  const destinationAmount = net.gt(0) ? roundReceived(net.mul(rate), request.destination) : exact(0);
  return { fees, destinationAmount };
}

/**
 * By destination: the smallest source amount whose by-source quote delivers at least the
 * requested destination amount. The closed form ignores the rounding of each fee part, so it can
 * fall short; what a source amount delivers only grows with it, so we widen the step until one
 * delivers, then bisect down to the unit (a few dozen steps even when fees take 99%).
 */
function smallestSourceFor(request: QuoteRequest, rate: Decimal, rates: RateSource, policy: PricingPolicy): Decimal {
  const feeShare = exact(request.platformFeeBps).div(10_000).add(request.developerFeePercent.div(100));
  if (feeShare.gte(1)) throw outOfRange('The fees take the whole amount');
  const networkFee = feesOf({ ...request, platformFeeBps: 0, developerFeePercent: exact(0) }, exact(0), rates, policy).network;
  const delivers = (source: Decimal) => forward(request, source, rate, rates, policy).destinationAmount.gte(request.amount);
  const step = unit(request.source);
  let short = roundPaid(request.amount.div(rate).add(networkFee).div(exact(1).sub(feeShare)), request.source);
  if (delivers(short)) return short;
  let enough = short.add(step);
  for (let widen = step; !delivers(enough); widen = widen.mul(2)) {
    short = enough;
    enough = short.add(widen);
  }
  while (enough.sub(short).gt(step)) {
    const middle = short.add(enough.sub(short).div(step).div(2).floor().mul(step));
    if (delivers(middle)) enough = middle;
    else short = middle;
  }
  return enough;
}

const outOfRange = (message: string) => new UnprocessableError('amount_out_of_range', message);

/** Prices a quote in either direction, and refuses amounts outside the configured limits. */
export function priceQuote(request: QuoteRequest, rates: RateSource, policy: PricingPolicy): PricedQuote {
  const rate = exact(rates.rate(request.source, request.destination)).toDecimalPlaces(RATE_SCALE, Decimal.ROUND_HALF_EVEN);
  if (rate.lte(0)) throw new Error(`no rate from ${request.source} to ${request.destination}`);
  const sourceAmount = request.side === 'source' ? request.amount : smallestSourceFor(request, rate, rates, policy);
  const { fees, destinationAmount: forwardDestination } = forward(request, sourceAmount, rate, rates, policy);
  // By destination the customer gets exactly what was asked; the source rounded up covers it.
  const destinationAmount = request.side === 'source' ? forwardDestination : request.amount;

  const usdValue = sourceAmount.mul(exact(rates.rate(request.source, 'usd')));
  if (usdValue.lt(policy.minUsd) || usdValue.gt(policy.maxUsd)) {
    throw outOfRange(`A transfer must be worth between ${policy.minUsd.toString()} and ${policy.maxUsd.toString()} USD`);
  }
  if (destinationAmount.lte(0)) throw outOfRange('The amount does not cover the fees');
  return { sourceAmount, destinationAmount, exchangeRate: rate, fees, feeAmount: sumFees(fees) };
}
