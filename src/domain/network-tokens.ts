import { UnprocessableError } from './errors.js';
import { NETWORKS, type Network, TOKENS, type Token } from './money.js';

/** Which stablecoins Ramp moves on each network: a quote or an account on any other pair is refused. */
export type NetworkTokens = Readonly<Record<Network, readonly Token[]>>;

/**
 * The pairs that exist in the world as issuers run them: Circle stopped minting USDC on Tron in February 2024 (and
 * ended its transfers and redemptions in February 2025); Tether issues no USDT on Base (the tokens there under that
 * name are unofficial bridges); USDT on Arbitrum is Tether's USDT0 since January 2025. docs/operations/configuration.md
 * gives the sources.
 */
export const AVAILABLE_NETWORK_TOKENS: NetworkTokens = {
  polygon: ['usdc', 'usdt'],
  ethereum: ['usdc', 'usdt'],
  solana: ['usdc', 'usdt'],
  base: ['usdc'],
  tron: ['usdt'],
  arbitrum: ['usdc', 'usdt'],
};

/** Reads NETWORK_TOKENS: each pair `network:token`; a network named by no pair offers no token. A problem is a sentence. */
export function parseNetworkTokens(text: string): NetworkTokens | { problem: string } {
  const matrix: Record<Network, Token[]> = { polygon: [], ethereum: [], solana: [], base: [], tron: [], arbitrum: [] };
  for (const pair of text
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean)) {
    const [network, token, extra] = pair.split(':');
    if (extra !== undefined || !(NETWORKS as readonly string[]).includes(network ?? '') || !(TOKENS as readonly string[]).includes(token ?? '')) {
      return { problem: `"${pair}" is not a network:token pair (networks: ${NETWORKS.join(', ')}; tokens: ${TOKENS.join(', ')})` };
    }
    const tokens = matrix[network as Network];
    if (!tokens.includes(token as Token)) tokens.push(token as Token);
  }
  // In the domain's order, whatever the setting's: listings read the same however the pairs were written.
  for (const network of NETWORKS) matrix[network].sort((a, b) => TOKENS.indexOf(a) - TOKENS.indexOf(b));
  return matrix;
}

/** Refuses a token the network does not offer: 422 `token_not_offered_on_network`. */
export function assertTokenOffered(matrix: NetworkTokens, network: Network, token: Token): void {
  if (matrix[network].includes(token)) return;
  const offered = matrix[network].length ? `it offers ${matrix[network].join(' and ')}` : 'it offers no token';
  throw new UnprocessableError(
    'token_not_offered_on_network',
    `${token} is not offered on ${network}: ${offered} (GET /v0/networks lists every network's tokens)`,
  );
}
