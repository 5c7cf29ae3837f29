/** An API key belongs to one environment; data never crosses environments. */
export const ENVIRONMENTS = ['sandbox', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** Who is calling: resolved from the API key on every request. */
export interface Actor {
  partnerId: string;
  environment: Environment;
  apiKeyId: string;
}
