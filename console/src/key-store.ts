/** The API key lives in this tab's session storage only: closing the tab forgets it. */
const KEY = 'ramp-console-api-key';

export const savedKey = (): string | null => sessionStorage.getItem(KEY);
export const saveKey = (key: string) => sessionStorage.setItem(KEY, key);
export const forgetKey = () => sessionStorage.removeItem(KEY);

/** What is wrong with a pasted key before asking Ramp, in words that name the fix; null when it looks right. */
export function keyProblem(key: string): string | null {
  if (!key)
    return 'Paste an API key: Ramp prints the demo partner’s sandbox key when it first starts; `npm run keys -- create --partner <name>` makes another.';
  if (/^Bearer\s/i.test(key)) return 'Paste the key alone, without “Bearer ” in front.';
  if (!/^rk_(sandbox|live)_/.test(key)) return 'Ramp keys start with rk_sandbox_ (sandbox) or rk_live_ (production): check you copied the whole key.';
  return null;
}
