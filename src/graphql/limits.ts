import { createComplexityRule } from '@pothos/plugin-complexity';
import type { Plugin } from 'graphql-yoga';

/** Query limits: deep enough for a transfer with its customer and postings, far below abuse. */
export const GRAPHQL_LIMITS = { maxDepth: 12, maxComplexity: 5000, maxBreadth: 200 } as const;

type Params = { variables?: Record<string, unknown>; operationName?: string };

/**
 * Rejects a too deep, too wide or too costly operation during validation, before anything runs
 * (connections count `first` as their multiplier).
 */
export function useQueryLimits(): Plugin {
  return {
    onValidate({ addValidationRule, context }) {
      const params = (context as { params?: Params }).params ?? {};
      addValidationRule(
        createComplexityRule({ context, variableValues: params.variables ?? {}, operationName: params.operationName, ...GRAPHQL_LIMITS }),
      );
    },
  };
}
