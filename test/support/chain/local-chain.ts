import { type Server, type Socket, createConnection, createServer } from 'node:net';
import { createPublicClient, erc20Abi, getAddress, http } from 'viem';
import { startLocalNode } from '../../../src/rails/evm/local-node.js';
import { SANDBOX_CHAIN_ID, SANDBOX_MNEMONIC } from '../../../src/rails/evm/sandbox-chain.js';

/**
 * A sandbox chain of the test's own, outside any Ramp: several instances (in this process or in
 * child processes) join it through SANDBOX_CHAIN_RPC_URL, and it outlives each of them. Mines one
 * block per transaction, and `mining(ms)` adds empty blocks on a clock so confirmations advance.
 */
export async function startLocalChain() {
  const node = await startLocalNode({ chainId: SANDBOX_CHAIN_ID, mnemonic: SANDBOX_MNEMONIC, blockTimeSeconds: 0, stateDir: null });
  const client = createPublicClient({ transport: http(node.rpcUrl) });
  let timer: NodeJS.Timeout | undefined;
  return {
    rpcUrl: node.rpcUrl,
    client,
    balanceOf: (contract: string, address: string) =>
      client.readContract({ address: getAddress(contract), abi: erc20Abi, functionName: 'balanceOf', args: [getAddress(address)] }),
    /** Mines an empty block every `ms` until stopped. */
    mining(ms: number) {
      timer = setInterval(() => void client.request({ method: 'anvil_mine' as never, params: ['0x1'] as never }).catch(() => undefined), ms);
    },
    async stop() {
      clearInterval(timer);
      await node.stop();
    },
  };
}

/**
 * The environment of a Ramp (in this process or a child) on `database`, joining the chain at `rpcUrl` (null: starting a
 * node of its own), 2 confirmations.
 */
export const chainRampEnv = (database: { env: Record<string, string> }, rpcUrl: string | null, extra: Record<string, string> = {}): Record<string, string> => ({
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
  ...database.env,
  SANDBOX_CHAIN: 'local',
  ...(rpcUrl && { SANDBOX_CHAIN_RPC_URL: rpcUrl }),
  SANDBOX_CONFIRMATIONS: '2',
  ...extra,
});

/**
 * A TCP proxy on loopback in front of an RPC endpoint, which the test cuts, refuses, hangs and restores:
 * cut, it drops every open connection and every new one, as an endpoint that went down does; refused,
 * it stops listening, so connections are refused by the system (ECONNREFUSED), as on a host whose node
 * is not running; hung, it accepts each new connection and never answers on it, as a node that froze does.
 */
export async function startRpcProxy(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const held = new Set<Socket>();
  let mode: 'up' | 'down' | 'refused' | 'hung' = 'up';
  const dropOpen = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  const server: Server = createServer((socket) => {
    if (mode === 'down') return socket.destroy();
    if (mode === 'hung') {
      // Read and forget: the request is taken, no answer ever comes.
      held.add(socket);
      socket.on('error', () => socket.destroy()).on('close', () => held.delete(socket));
      socket.resume();
      return;
    }
    const upstream = createConnection({ host: hostname, port: Number(port) });
    sockets.add(socket).add(upstream);
    const close = () => {
      socket.destroy();
      upstream.destroy();
      sockets.delete(socket);
      sockets.delete(upstream);
    };
    socket.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the proxy does not listen');
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut() {
      mode = 'down';
      dropOpen();
    },
    async refuse() {
      mode = 'refused';
      dropOpen();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    /** Connections already open are dropped too: a client's kept-alive connection must not slip past the hang. */
    hang() {
      mode = 'hung';
      dropOpen();
    },
    /** Listens again (on the same port) when refused: resolved once it does. */
    async restore() {
      const refused = mode === 'refused';
      mode = 'up';
      for (const socket of held) socket.destroy();
      held.clear();
      if (refused) await new Promise<void>((resolve) => server.listen(address.port, '127.0.0.1', resolve));
    },
    close: () => {
      for (const socket of [...sockets, ...held]) socket.destroy();
      if (!server.listening) return Promise.resolve();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
