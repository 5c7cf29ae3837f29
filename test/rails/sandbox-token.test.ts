import { describe, expect, it } from 'vitest';
import { compileSandboxToken } from '../../scripts/compile-token.js';
import { sandboxTokenAbi, sandboxTokenBytecode } from '../../src/rails/evm/sandbox-token.js';

describe('the sandbox token the local chain deploys', () => {
  it('is what contracts/SandboxToken.sol compiles to (run scripts/compile-token.ts after changing it)', () => {
    const compiled = compileSandboxToken();
    expect(sandboxTokenBytecode).toBe(compiled.bytecode);
    expect(sandboxTokenAbi).toEqual(compiled.abi);
  }, 60_000);
});
