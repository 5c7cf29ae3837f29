import { createServer } from 'node:net';
import { Refusal } from '../../refusal.js';

/** The refusal of a port another process holds: what to do about it, in one sentence. */
export const portTaken = (host: string, port: number) =>
  new Refusal(`Port ${port} on ${host} is in use by another process: stop it, or start Ramp on another port with PORT=<port> (PORT=0 takes any free one).`);

/**
 * Refuses at once a port another process listens on, before the database is migrated and a chain is started (which
 * take seconds): a taken port must not be found out only when Ramp is ready to listen. Port 0 is always free.
 */
export async function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? portTaken(host, port) : error));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
