import { connect } from 'node:net';

/** One request as the fuzzers build it, and what every answer to it must look like. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** No request may take longer than this, however hostile (the slowest legitimate ones take well under a second). */
export const REQUEST_TIMEOUT_MS = 15_000;

export async function send(baseUrl: string, request: FuzzRequest): Promise<FuzzAnswer> {
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** Writes bytes fetch would refuse (control characters in headers) and reads the whole answer. */
export function sendRaw(baseUrl: string, bytes: string): Promise<FuzzAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(Buffer.from(bytes, 'latin1')));
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
    let raw = '';
    socket.on('data', (chunk) => (raw += chunk.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      const head = raw.slice(0, raw.indexOf('\r\n\r\n'));
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      const contentType = /\r\ncontent-type: *([^\r]*)/i.exec(head)?.[1] ?? '';
      resolve({ status, contentType, text: raw.slice(head.length + 4) });
    });
    socket.on('error', reject);
  });
}

const SNAKE = /^[a-z][a-z0-9_]*$/;
const GRAPHQL_CODE = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The shape a path answers in (duplicate slashes folded, as the router folds them). */
export function shapeOfPath(path: string): 'problem' | 'encryptus' | 'graphql' {
  const folded = path.split('?')[0]!.replace(/\/{2,}/g, '/');
  if (folded.startsWith('/v1/') || folded.startsWith('/auth/')) return 'encryptus';
  if (folded === '/graphql') return 'graphql';
  return 'problem';
}

/** Why an answer breaks the contract (docs/api/errors.md), or null when it keeps it. */
export function contractBreach(request: Pick<FuzzRequest, 'method' | 'path'>, answer: FuzzAnswer): string | null {
  if (answer.status >= 500 || answer.status < 100) return `status ${answer.status}`;
  const shape = shapeOfPath(request.path);
  // Pages for people (docs, GraphiQL, the sandbox KYC page) answer in HTML, their not-found pages too.
  if (answer.contentType.startsWith('text/html') && /^\/+(docs|sandbox|graphql)\b/.test(request.path)) return null;
  if (answer.status < 400 && !answer.contentType.includes('json')) return null;
  if (answer.text === '' && answer.status < 400) return null;
  if (request.method === 'HEAD') {
    const expected = shape === 'problem' ? 'application/problem+json' : 'application/json';
    return answer.contentType.includes(expected) ? null : `HEAD answered ${answer.status} as ${answer.contentType}`;
  }
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return answer.text === '' && answer.status === 405 ? null : 'the answer is not JSON';
  }
  if (shape === 'graphql') {
    const errors = body?.errors;
    if (answer.status >= 400 && !Array.isArray(errors)) return 'a refused GraphQL request without errors[]';
    if (errors !== undefined) {
      if (!Array.isArray(errors) || errors.length === 0) return 'errors is not a non-empty list';
      const uncoded = errors.find((e: any) => typeof e?.extensions?.code !== 'string' || !GRAPHQL_CODE.test(e.extensions.code));
      if (uncoded) return `a GraphQL error without extensions.code: ${JSON.stringify(uncoded).slice(0, 300)}`;
      if (errors.some((e: any) => e.extensions.code === 'INTERNAL_SERVER_ERROR')) return 'INTERNAL_SERVER_ERROR';
    }
    return null;
  }
  if (answer.status < 400) return null;
  if (shape === 'encryptus') {
    if (body?.success !== false || body.status !== answer.status || !/^EN-[A-Z]+-\d{3}$/.test(body.code ?? '')) return 'not the Encryptus envelope';
    if (!SNAKE.test(body.data?.error ?? '') || typeof body.data?.request_id !== 'string') return 'an envelope without data.error or data.request_id';
    return null;
  }
  if (!answer.contentType.includes('application/problem+json')) return `content-type ${answer.contentType}`;
  if (body?.status !== answer.status || !SNAKE.test(body.code ?? '') || typeof body.request_id !== 'string') return 'not problem+json with a code';
  return null;
}

/** Runs `tasks` with at most `width` in flight. */
export async function inParallel<T>(width: number, items: T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await task(items[next++]!);
    }),
  );
}
