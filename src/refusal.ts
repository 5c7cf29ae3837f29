/**
 * A refusal the operator can act on: the embedded database is in use, a setting is invalid, no
 * key has that prefix. Entry points (npm start, npm run keys) print its message alone: a stack
 * trace would bury the one sentence that says what to do.
 */
export class Refusal extends Error {
  override name = 'Refusal';
}

/** Prints a refusal as its sentence and exits 1; anything else is a bug and keeps its stack trace. */
export function exitIfRefused(error: unknown): never {
  if (error instanceof Refusal) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  throw error;
}
