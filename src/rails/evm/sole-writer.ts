import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';

/**
 * One anvil per state file. Two nodes on one `anvil-state.json` both dump their chain into it every few seconds, and
 * the last writer wins: a payout the database calls completed can vanish from the chain. So a start first stops every
 * node still writing its state file (a Ramp killed outright leaves one), and records the node it starts in a pid file
 * beside the state, which also tells an operator which process holds it.
 *
 * A leftover is stopped, not adopted: it was started with the old Ramp's settings (block time, accounts) and is tied
 * to no living Ramp, so adopting it would keep a node that outlives Ramp once more. SIGTERM makes anvil dump its whole
 * chain before it exits, so starting again from the file loses nothing the leftover had.
 *
 * Starts on one data directory are already one at a time (the embedded database's lock is taken first), so the pid
 * file records an owner; it does not arbitrate between racing starters.
 */
export interface NodeRecord {
  /** anvil's own pid. */
  pid: number;
  /** The shell that stops anvil when Ramp goes away. */
  watchdogPid: number;
  rpcUrl: string;
  stateFile: string;
  startedAt: string;
}

/** How long a leftover may take to dump its chain after SIGTERM before it is killed. */
export const LEFTOVER_STOP_MS = 15_000;

export function recordNode(pidFile: string, record: NodeRecord) {
  writeFileSync(pidFile, `${JSON.stringify(record, null, 2)}\n`);
}

export function forgetNode(pidFile: string, pid: number) {
  if (readRecord(pidFile)?.pid === pid) rmSync(pidFile, { force: true });
}

/** Stops every node writing `stateFile`, waiting for each to dump its chain and exit; returns their pids. */
export async function stopLeftoverWriters(stateFile: string, pidFile: string, log: (message: string) => void): Promise<number[]> {
  const leftovers = writersOf(stateFile, pidFile);
  for (const pid of leftovers) {
    const record = readRecord(pidFile);
    const was = record?.pid === pid ? ` (it served ${record.rpcUrl} since ${record.startedAt})` : '';
    log(`stopping anvil ${pid}, left writing ${stateFile} by a Ramp that did not stop cleanly${was}`);
    signal(pid, 'SIGTERM');
  }
  const deadline = Date.now() + LEFTOVER_STOP_MS;
  let alive = leftovers;
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    alive = alive.filter((pid) => writes(pid, stateFile));
  }
  for (const pid of alive) {
    log(`anvil ${pid} did not stop within ${LEFTOVER_STOP_MS / 1000} s of SIGTERM; killing it (its last periodic dump stands)`);
    signal(pid, 'SIGKILL');
  }
  while (alive.some((pid) => writes(pid, stateFile))) await new Promise((resolve) => setTimeout(resolve, 50));
  rmSync(pidFile, { force: true });
  return leftovers;
}

/**
 * Who writes `stateFile` now. On Linux every process is asked, so a node no pid file names (one left by a Ramp older
 * than the pid file) is found too; elsewhere the pid file's node, if it still runs anvil on that file.
 */
function writersOf(stateFile: string, pidFile: string): number[] {
  if (existsSync('/proc/self/cmdline')) {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number)
      .filter((pid) => pid !== process.pid && writes(pid, stateFile));
  }
  const recorded = readRecord(pidFile)?.pid;
  return recorded && writes(recorded, stateFile) ? [recorded] : [];
}

/** Whether `pid` is, right now, an anvil started on `stateFile`: a pid alone may have been reused by anything. */
function writes(pid: number, stateFile: string): boolean {
  const args = commandLine(pid);
  if (!args || !/^anvil(\.exe)?$/.test(basename(args[0] ?? ''))) return false;
  const at = args.indexOf('--state');
  const path = at >= 0 ? args[at + 1] : undefined;
  return path !== undefined && resolve(workingDirectory(pid), path) === stateFile;
}

/** Where `pid` runs, to resolve a relative state path it was given. */
function workingDirectory(pid: number): string {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return process.cwd();
  }
}

function commandLine(pid: number): string[] | null {
  try {
    if (existsSync('/proc/self/cmdline')) {
      // A zombie (exited, not yet reaped) has an empty command line: it writes nothing any more.
      const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return raw ? raw.replace(/\0$/, '').split('\0') : null;
    }
    // Without /proc (macOS), ps prints the command line; paths with spaces split wrongly, which only misses a match.
    return execFileSync('ps', ['-p', String(pid), '-o', 'command='], { encoding: 'utf8' })
      .trim()
      .split(/\s+/);
  } catch {
    return null; // gone, or not ours to read
  }
}

function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name);
  } catch {
    // it exited meanwhile
  }
}

function readRecord(pidFile: string): NodeRecord | null {
  try {
    return JSON.parse(readFileSync(pidFile, 'utf8')) as NodeRecord;
  } catch {
    return null;
  }
}
