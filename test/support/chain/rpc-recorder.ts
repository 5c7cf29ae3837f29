import { type Server, createServer } from 'node:http';

/** One JSON-RPC call as it went through the recorder: its method, params and the node's result. */
export interface RecordedCall {
  method: string;
  params: unknown[];
  result: unknown;
}

/**
 * An HTTP proxy on loopback in front of a JSON-RPC endpoint that keeps every call and its answer,
 * so a test can say what Ramp asked the node, and what the node had to send back. `beforeForwarding`,
 * when set, runs before a request goes on: a test acts there while Ramp waits for the node.
 */
export async function startRpcRecorder(target: string) {
  const calls: RecordedCall[] = [];
  const hooks: { beforeForwarding: ((calls: { method: string; params?: unknown[] }[]) => Promise<void>) | null } = { beforeForwarding: null };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        await hooks.beforeForwarding?.([JSON.parse(body)].flat());
        const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        const text = await upstream.text();
        const sent = [JSON.parse(body)].flat() as { id: unknown; method: string; params?: unknown[] }[];
        const answered = [JSON.parse(text)].flat() as { id: unknown; result?: unknown }[];
        for (const call of sent) calls.push({ method: call.method, params: call.params ?? [], result: answered.find((a) => a.id === call.id)?.result });
        response.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
      } catch (error) {
        response.writeHead(502).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('the recorder does not listen');
  return {
    url: `http://127.0.0.1:${address.port}`,
    calls,
    hooks,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
