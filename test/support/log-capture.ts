import { Writable } from 'node:stream';

/** A log destination that keeps what Ramp writes to it: the text from a position on, or its JSON lines. */
export function capturedLog() {
  let written = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      written += chunk.toString();
      done();
    },
  });
  return {
    stream,
    /** Where the log ends now: what a test reads from, to see only what its own requests wrote. */
    get length() {
      return written.length;
    },
    text: (from = 0) => written.slice(from),
    /** Each line as pino wrote it (JSON), whatever fields it has: tests read the ones they assert. */
    lines: (from = 0): any[] =>
      written
        .slice(from)
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
  };
}
