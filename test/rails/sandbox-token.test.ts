import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileSandboxToken, renderArtifact } from '../../scripts/compile-token.js';

describe('the sandbox token the local chain deploys', () => {
  it('is what contracts/SandboxToken.sol compiles to (run scripts/compile-token.ts after changing it)', () => {
    expect(readFileSync('src/rails/evm/sandbox-token.ts', 'utf8')).toBe(renderArtifact(compileSandboxToken()));
  }, 60_000);
});
