/**
 * Preloaded (`--import`) into Ramp when BENCH_CPU_PROF=1: a V8 CPU profile of each of Ramp's measured
 * windows only, one file per window in /tmp/ramp-prof (or BENCH_PROF_DIR, so two benches on one machine keep
 * their own files). A profile of the whole process (`--cpu-prof`)
 * also holds the seeding and the baseline's rounds, when Ramp waits for requests that go elsewhere:
 * it shows Ramp idle about half of the time, which says nothing about Ramp under load.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

const DIR = process.env.BENCH_PROF_DIR ?? '/tmp/ramp-prof';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
// A sample every 100 µs (V8's default is 1 ms): a read costs about 300 µs, so the default sees one frame in three reads.
await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROF_INTERVAL_US ?? 100) });

process.on('message', async (message) => {
  if (!message || typeof message !== 'object' || !('cpuProfile' in message)) return;
  const { cpuProfile, label } = message as { cpuProfile: 'start' | 'stop'; label: string };
  if (cpuProfile === 'start') await session.post('Profiler.start');
  else {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(DIR, { recursive: true });
    writeFileSync(`${DIR}/${label}.cpuprofile`, JSON.stringify(profile));
  }
  process.send?.({ cpuProfiled: cpuProfile });
});
