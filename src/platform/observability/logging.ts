import pino, { type Logger } from 'pino';

/**
 * Keys, secrets, bank numbers and document numbers never reach a log line in clear, wherever
 * they appear in a logged object.
 */
const SECRET_FIELDS = [
  'authorization',
  'apiKey',
  'api_key',
  'key',
  'secret',
  'signingSecret',
  'iban',
  'iban_number',
  'account_number',
  'accountNumber',
  'bankAccountNumber',
  'number',
  'documentNo',
  'tax_number',
  'provider_share_kyc_token',
  'providersharedtoken',
];

/**
 * Database errors carry the failing SQL with its values and the failing row ("Failing row
 * contains …"): an IBAN or a document number would land in the log. Keep the message and stack.
 */
function serializeError(error: Error) {
  const serialized = pino.stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const field of ['query', 'sql', 'params', 'parameters', 'detail', 'where', 'values']) delete serialized[field];
  return serialized;
}

/** `json`: one JSON object a line, for machines (production). `pretty`: one short line an event and a request, for people. */
export type LogFormat = 'json' | 'pretty';

export function createLogger(level: string, destination?: pino.DestinationStream, format: LogFormat = 'json'): Logger {
  return primitivesWrittenStraight(
    pino(
      {
        level,
        serializers: { err: serializeError },
        redact: {
          paths: [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`), ...SECRET_FIELDS.map((f) => `*.*.${f}`), 'req.headers.authorization'],
          censor: '[redacted]',
        },
      },
      format === 'pretty' ? prettyLines(destination ?? process.stdout) : destination,
    ),
  );
}
export type { Logger };

const { stringifiersSym, stringifySym, wildcardFirstSym } = pino.symbols as typeof pino.symbols & { wildcardFirstSym: symbol };
type Stringifier = (value: unknown, stringifySafe?: unknown) => string | undefined;

/**
 * The `*.`-paths above make pino pass every value with no path of its own through a redactor, strings
 * included: each request's child logger (its `reqId`) and each GraphQL operation's bindings cost 11 µs
 * (test/platform/logging.test.ts), for values in which no key can sit. A string, number, boolean or
 * null is written by pino's own stringify, as the redactor ended by doing; an object still goes through
 * the redactor, and a value under a secret's name is censored by that name's own stringifier as before.
 * Children share their parent's stringifiers, so the root's is the one to set.
 */
function primitivesWrittenStraight(logger: Logger): Logger {
  const internals = logger as unknown as Record<symbol, unknown>;
  const stringifiers = internals[stringifiersSym] as Record<symbol, Stringifier> | undefined;
  const redacting = stringifiers?.[wildcardFirstSym];
  const stringify = internals[stringifySym] as Stringifier;
  if (!stringifiers || !redacting) return logger;
  stringifiers[wildcardFirstSym] = (value, stringifySafe) => {
    const type = typeof value;
    const plain = value === null || type === 'string' || type === 'number' || type === 'boolean';
    return plain ? stringify(value, stringifySafe) : redacting(value, stringifySafe);
  };
  return logger;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** What every line has, or what the pretty line shows in its own place. */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'req', 'res', 'responseTime', 'err']);
/** Requests whose first line (method, path) waits for their last (status, time); bounded for requests that never finish. */
const MAX_OPEN_REQUESTS = 1000;

/**
 * The pretty format: pino's JSON lines (redacted as in production) rewritten as
 * `12:00:01.234 INFO  POST /v0/customers → 201 in 12 ms  [req-id]`. Fastify's two lines per
 * request (received, completed) become one, written when the request completes.
 */
export function prettyLines(out: { write(text: string): unknown }): pino.DestinationStream {
  const open = new Map<string, string>();
  return {
    write(line: string) {
      const entry = JSON.parse(line) as Record<string, unknown> & { req?: { method?: string; url?: string }; res?: { statusCode?: number } };
      const reqId = typeof entry.reqId === 'string' ? entry.reqId : undefined;
      if (reqId && entry.msg === 'incoming request' && entry.req) {
        if (open.size >= MAX_OPEN_REQUESTS) open.delete(open.keys().next().value as string);
        open.set(reqId, `${entry.req.method} ${entry.req.url}`);
        return;
      }
      let text = String(entry.msg ?? '');
      if (reqId && entry.msg === 'request completed') {
        text = `${open.get(reqId) ?? 'request'} → ${entry.res?.statusCode} in ${Math.round(Number(entry.responseTime))} ms`;
        open.delete(reqId);
      }
      const time = new Date(Number(entry.time)).toISOString().slice(11, 23);
      const level = (LEVELS[Number(entry.level)] ?? String(entry.level)).padEnd(5);
      const rest = Object.entries(entry).filter(([key]) => !SHOWN.has(key));
      const fields = rest.map(([key, value]) => ` ${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join('');
      const err = entry.err as { stack?: string; message?: string } | undefined;
      const error = err ? `\n  ${(err.stack ?? err.message ?? '').split('\n').join('\n  ')}` : '';
      out.write(`${time} ${level} ${text}${fields}${reqId ? `  [${reqId}]` : ''}${error}\n`);
    },
  };
}
