import countries from 'i18n-iso-countries';

/** Business KYB: the enums of the three sections a partner submits. */
export const BUSINESS_TYPES = ['limitedLiabilityCompany', 'soleProprietor', 'corporation', 'partnership', 'publiclyListedCompany', 'trust'] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];

export const LEGAL_REPRESENTATION_TYPES = ['director'] as const;
export type LegalRepresentationType = (typeof LEGAL_REPRESENTATION_TYPES)[number];

/** Government-issued proofs of identity. */
export const IDENTITY_DOCUMENT_NAMES = ['PASSPORT', 'ID_CARD', 'DRIVERS', 'RESIDENCE'] as const;
export type IdentityDocumentName = (typeof IDENTITY_DOCUMENT_NAMES)[number];

/** The parts of a business profile; a profile is complete when it has all of them. */
export const BUSINESS_PROFILE_SECTIONS = ['basicDetails', 'address', 'legalRepresentation'] as const;
export type BusinessProfileSection = (typeof BUSINESS_PROFILE_SECTIONS)[number];

export function missingSections(present: { basicDetails: boolean; address: boolean; legalRepresentation: boolean }): BusinessProfileSection[] {
  return BUSINESS_PROFILE_SECTIONS.filter((s) => !present[s]);
}

/** `YYYY-MM-DD` that names a real day of the Gregorian calendar (2023-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Today's date in UTC as `YYYY-MM-DD`; calendar dates compare as strings. */
export const todayUtc = (now: Date = new Date()) => now.toISOString().slice(0, 10);

/** An assigned ISO 3166-1 alpha-3 code, upper case (`ARE`, `DEU`). */
export const isAlpha3Country = (code: string) => /^[A-Z]{3}$/.test(code) && countries.alpha3ToAlpha2(code) !== undefined;

/** The alpha-2 code of an alpha-3 one (`ARE` → `AE`), as customer addresses spell countries. */
export const alpha2OfAlpha3 = (code: string): string | undefined => countries.alpha3ToAlpha2(code);

/** The alpha-3 code of a country named in English (`Germany`, `United States of America`), or undefined. */
export function alpha3OfEnglishName(name: string): string | undefined {
  return countries.getAlpha3Code(name.trim(), 'en') ?? countries.getSimpleAlpha3Code(name.trim(), 'en');
}

/**
 * Text in the Latin alphabet (with accents, digits, punctuation and spaces), as the `…En`
 * fields and `state` require; `Straße 1` passes, `Дубай` does not.
 */
export const isLatinText = (value: string) => /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}\p{S}]+$/u.test(value);

/**
 * isLatinText as the REST contract states it (a pattern, read with Unicode property escapes): Latin text with at least
 * one character besides spaces, since the field is trimmed and may not be empty.
 */
export const LATIN_TEXT_PATTERN = String.raw`^[\p{Script=Latin}\p{N}\p{P}\p{Zs}\p{S}]*[\p{Script=Latin}\p{N}\p{P}\p{S}][\p{Script=Latin}\p{N}\p{P}\p{Zs}\p{S}]*$`;

/** Document numbers are shown only by their last four characters (fewer for short numbers). */
export function maskDocumentNumber(number: string): string {
  return `…${number.slice(-Math.min(4, Math.floor(number.length / 2)))}`;
}
