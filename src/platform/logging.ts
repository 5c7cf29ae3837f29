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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      serializers: { err: serializeError },
      redact: {
        paths: [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`), ...SECRET_FIELDS.map((f) => `*.*.${f}`), 'req.headers.authorization'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
export type { Logger };
