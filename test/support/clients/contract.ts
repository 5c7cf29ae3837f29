import type { Ramp } from '../../../src/app.js';
import { contractCheck } from '../../../src/rest/openapi/check.js';

/**
 * Every REST answer a test receives is checked against the OpenAPI document (status, content type,
 * body schema; Ajv strict): a response that drifts from openapi.json fails the test file when its
 * Ramp closes, with every violation listed. Installed by startRamp, before the server listens.
 */
export function watchContract(ramp: Ramp) {
  const violations: string[] = [];
  let check: ReturnType<typeof contractCheck> | undefined;
  ramp.http.app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!route || (typeof payload !== 'string' && payload !== null && payload !== undefined)) return payload;
    check ??= contractCheck(ramp.http.openApi.document());
    if (!check.covers(request.method, route)) return payload;
    const contentType = reply.getHeader('content-type');
    violations.push(
      ...check.violations({
        method: request.method,
        route,
        status: reply.statusCode,
        contentType: contentType === undefined ? undefined : String(contentType),
        body: payload ?? '',
      }),
    );
    return payload;
  });
  return {
    violations,
    assertKept() {
      if (violations.length) throw new Error(`${violations.length} answers broke openapi.json:\n${[...new Set(violations)].join('\n')}`);
    },
  };
}
