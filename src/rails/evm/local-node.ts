import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { forgetNode, recordNode, stopLeftoverWriters } from './sole-writer.js';

/**
 * The sandbox's own EVM node: anvil, from the npm package `@foundry-rs/anvil` (its binary ships in
 * a per-platform package, so nothing is downloaded), listening on loopback only. With a data
 * directory, anvil keeps the chain in `<dir>/anvil-state.json` (written every few seconds and on
 * exit) and loads it on the next start, so the chain and the database stay together; `anvil.pid`
 * names the one node writing it, and `anvil.log` holds what the node printed since it started.
 */
export interface LocalNode {
  rpcUrl: string;
  stop(): Promise<void>;
}

export interface LocalNodeOptions {
  chainId: number;
  mnemonic: string;
  blockTimeSeconds: number;
  stateDir: string | null;
  /** Told when a node left by an earlier Ramp has to be stopped first. */
  log?: (message: string) => void;
}

const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };
const START_MS = 20_000;
/** How long anvil may take to dump its chain when Ramp stops it, before it is killed. */
const STOP_MS = 10_000;

/**
 * anvil runs under a shell that stops it once Ramp is gone, however Ramp went: the shell reads a pipe from Ramp, and
 * the kernel closes that pipe even when Ramp is killed outright (SIGKILL runs no exit handler). SIGTERM, not a harder
 * signal, so anvil dumps its chain on the way out. It runs in a process group of its own, so a signal aimed at Ramp's
 * group (Ctrl-C, or a supervisor's SIGKILL) reaches anvil only through this orderly path. anvil writes to a file,
 * never to a pipe to Ramp: once Ramp is gone, a write to that pipe would kill anvil before it could dump its chain.
 */
const WATCHDOG = `
log=$1; shift
"$@" >>"$log" 2>&1 </dev/null &
node=$!
echo "$node"
trap 'kill -TERM "$node" 2>/dev/null' HUP INT TERM
read -r line
kill -TERM "$node" 2>/dev/null
while kill -0 "$node" 2>/dev/null; do wait "$node"; done
`;

function anvilBinary(): string {
  const pkg = `@foundry-rs/anvil-${process.platform}-${ARCH[process.arch] ?? process.arch}`;
  const manifest = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
  return join(dirname(manifest), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

export async function startLocalNode(options: LocalNodeOptions): Promise<LocalNode> {
  const home = options.stateDir ? resolve(options.stateDir) : mkdtempSync(join(tmpdir(), 'ramp-anvil-'));
  mkdirSync(home, { recursive: true });
  const stateFile = join(home, 'anvil-state.json');
  const pidFile = join(home, 'anvil.pid');
  const logFile = join(home, 'anvil.log');
  const args = ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(options.chainId), '--mnemonic', options.mnemonic, '--accounts', '3'];
  if (options.blockTimeSeconds > 0) args.push('--block-time', String(options.blockTimeSeconds));
  if (options.stateDir) {
    await stopLeftoverWriters(stateFile, pidFile, options.log ?? (() => {}));
    args.push('--state', stateFile, '--state-interval', '5');
  }
  closeSync(openSync(logFile, 'w')); // this node's output only
  const { child, pid } = await spawnNode(anvilBinary(), args, logFile);
  const stop = () => stopNode(child, pid).then(() => (options.stateDir ? forgetNode(pidFile, pid) : rmSync(home, { recursive: true, force: true })));
  try {
    const rpcUrl = await listeningAddress(logFile, child);
    if (options.stateDir) recordNode(pidFile, { pid, watchdogPid: child.pid!, rpcUrl, stateFile, startedAt: new Date().toISOString() });
    return { rpcUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Starts anvil under its watchdog (directly on Windows, which has no sh), and learns anvil's own pid. */
async function spawnNode(binary: string, args: string[], logFile: string): Promise<{ child: ChildProcess; pid: number }> {
  if (process.platform === 'win32') {
    const out = openSync(logFile, 'a');
    const child = spawn(binary, args, { stdio: ['ignore', out, out] });
    closeSync(out);
    return { child, pid: child.pid! };
  }
  const child = spawn('/bin/sh', ['-c', WATCHDOG, 'ramp-anvil-watchdog', logFile, binary, ...args], { stdio: ['pipe', 'pipe', 'ignore'], detached: true });
  const [line] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [''])])) as [Buffer | string];
  const pid = Number.parseInt(line.toString(), 10);
  if (!pid) throw new Error('the anvil watchdog did not start');
  return { child, pid };
}

async function listeningAddress(logFile: string, child: ChildProcess): Promise<string> {
  const deadline = Date.now() + START_MS;
  for (;;) {
    const output = readFileSync(logFile, 'utf8');
    const listening = /Listening on ([0-9.]+:\d+)/.exec(output);
    if (listening) return `http://${listening[1]}`;
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`anvil exited before listening: ${output.slice(-500)}`);
    if (Date.now() > deadline) throw new Error(`anvil did not start within ${START_MS / 1000} s: ${output.slice(-500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopNode(child: ChildProcess, pid: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  const force = setTimeout(() => {
    for (const target of [pid, child.pid!]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, STOP_MS);
  // The watchdog's cue: it sends anvil SIGTERM and waits while anvil dumps its chain. Windows has no watchdog.
  if (child.stdin) child.stdin.end();
  else child.kill('SIGTERM');
  await exited;
  clearTimeout(force);
}
