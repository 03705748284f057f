/**
 * A platform's language tag read as BCP 47 (issue 13 item 5): `language` is its ISO 639-1 part
 * ("zh"), `locale` the whole tag in canonical case ("zh-TW", "zh-Hant-TW", "pt-BR"), so a
 * filter on language still works and the region or script is not lost. Underscores ("pt_BR")
 * are read as hyphens. Not a tag, or a language without a two-letter code: both null.
 */
const TAG = /^([a-z]{2,3})(?:[-_]([a-z]{4}))?(?:[-_]([a-z]{2}|\d{3}))?$/i;

export interface LanguageTag {
  language: string | null;
  locale: string | null;
}

export function languageTag(raw: string | null | undefined): LanguageTag {
  const m = raw ? TAG.exec(raw.trim()) : null;
  if (!m) return { language: null, locale: null };
  const lang = m[1]!.toLowerCase();
  if (lang.length !== 2) return { language: null, locale: null };
  const script = m[2] ? m[2][0]!.toUpperCase() + m[2].slice(1).toLowerCase() : null;
  const region = m[3] ? m[3].toUpperCase() : null;
  return { language: lang, locale: [lang, script, region].filter(Boolean).join('-') };
}
