import { connect } from 'node:net';

/**
 * Sends bytes as they are on a socket of their own (a request line or header Node's fetch refuses to send: an unknown
 * method, control characters) and answers the raw HTTP response once the server closes the connection.
 */
export function rawRequest(url: string, head: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
