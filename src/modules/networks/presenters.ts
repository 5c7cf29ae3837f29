import type { FaucetMint, FiatRailsView, NetworkView } from './service.js';

/** A network as REST shows it (GET /v0/networks, GET /v0/sandbox/networks). */
export const presentNetwork = (n: NetworkView) => ({
  network: n.network,
  rails: n.rails,
  chain_id: n.chainId,
  rpc_url: n.rpcUrl,
  required_confirmations: n.requiredConfirmations,
  offered_tokens: [...n.offeredTokens],
  tokens: n.tokens.map((t) => ({ token: t.token, contract_address: t.contractAddress, decimals: t.decimals })),
});

/** A fiat currency's rails as REST shows them (`fiat_rails` of GET /v0/networks). */
export const presentFiatRails = (f: FiatRailsView) => ({ currency: f.currency, rails: f.rails, payment_rails: [...f.paymentRails] });

/** The faucet's answer (POST /v0/sandbox/faucet). */
export const presentFaucetMint = (m: FaucetMint) => ({
  network: m.network,
  token: m.token,
  address: m.address,
  amount: m.amount,
  transaction_hash: m.transactionHash,
});
