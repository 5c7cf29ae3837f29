import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The sandbox's own EVM node: anvil, from the npm package `@foundry-rs/anvil` (its binary ships in
 * a per-platform package, so nothing is downloaded), listening on loopback only. With a data
 * directory, anvil keeps the chain in `<dir>/anvil-state.json` (written every few seconds and on
 * exit) and loads it on the next start, so the chain and the database stay together.
 */
export interface LocalNode {
  rpcUrl: string;
  stop(): Promise<void>;
}

const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };

function anvilBinary(): string {
  const pkg = `@foundry-rs/anvil-${process.platform}-${ARCH[process.arch] ?? process.arch}`;
  const manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
  return join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

export async function startLocalNode(options: { chainId: number; mnemonic: string; blockTimeSeconds: number; stateDir: string | null }): Promise<LocalNode> {
  const args = ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(options.chainId), '--mnemonic', options.mnemonic, '--accounts', '3'];
  if (options.blockTimeSeconds > 0) args.push('--block-time', String(options.blockTimeSeconds));
  if (options.stateDir) {
    mkdirSync(options.stateDir, { recursive: true });
    args.push('--state', join(options.stateDir, 'anvil-state.json'), '--state-interval', '5');
  }
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const rpcUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`anvil did not start within 20 s: ${output.slice(-500)}`)), 20_000);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`anvil exited with ${code} before listening: ${output.slice(-500)}`)));
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /Listening on ([0-9.]+:\d+)/.exec(output);
      if (listening) {
        clearTimeout(timer);
        child.stdout!.off('data', read);
        // Keep draining what anvil prints, or its pipe fills and it blocks.
        child.stdout!.resume();
        resolve(`http://${listening[1]}`);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
  });
  child.removeAllListeners('exit');
  // However Ramp ends (a crash, process.exit), its chain does not outlive it as an orphan holding the state file.
  const orphanGuard = () => child.kill('SIGTERM');
  process.once('exit', orphanGuard);
  return {
    rpcUrl,
    stop: async () => {
      process.off('exit', orphanGuard);
      await stopChild(child);
    },
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    // SIGTERM lets anvil write its state file before it exits.
    child.kill('SIGTERM');
  });
}
