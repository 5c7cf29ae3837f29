import { parseArgs } from 'node:util';
import { ENVIRONMENTS, type Environment } from '../domain/environment.js';

/** What the bank operator commands take: the environment whose bank is meant, how many to print, and maybe a file. */
export interface BankArguments {
  environment: Environment;
  limit: number;
  file: string | undefined;
}

/**
 * `--environment sandbox|production` (production unless said), `--limit <n>` (`defaultLimit` unless said), and
 * `--file <path>` where `withFile`: the arguments, or null after printing `usage` (the command then exits 2).
 */
export function bankArguments(argv: string[], usage: string, defaultLimit: number, withFile = false): BankArguments | null {
  const refuse = () => {
    process.stderr.write(`${usage}\n`);
    return null;
  };
  let values: { environment?: string; limit?: string; file?: string };
  try {
    const text = { type: 'string' } as const;
    ({ values } = parseArgs({ args: argv, options: withFile ? { environment: text, limit: text, file: text } : { environment: text, limit: text } }));
  } catch {
    return refuse();
  }
  const environment = (values.environment ?? 'production') as Environment;
  if (!ENVIRONMENTS.includes(environment) || (values.limit !== undefined && !/^[1-9][0-9]*$/.test(values.limit))) return refuse();
  return { environment, limit: Number(values.limit ?? defaultLimit), file: values.file };
}
