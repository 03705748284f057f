/**
 * Whether a rate's own words state its refund terms: a rate name ("Deluxe King - Non-Refundable",
 * "Club Room - Free Cancellation") or an OTA's remark. true: free cancellation or a full refund is
 * stated; false: non-refundable is stated; null: the words say neither. Only explicit statements
 * count: "Book Early & Save" or "The Flexible Rate" often mean one or the other, but do not say it,
 * and "No refund if cancelled within 48 hours" says a deadline, not non-refundable.
 *
 * A rate name is often the hotel's own words, in its own language whatever locale we ask in, so
 * the common European ones are read (en, de, fr, es, it, pt, nl); other languages are null.
 */
const NON_REFUNDABLE = [
  /\bnon[-\s]?refundable\b/i,
  /\bnicht (?:erstattbar|stornierbar)\b/i,
  /\bnon[-\s]remboursable\b/i,
  /\bno reembolsable\b/i,
  /\bnon rimborsabile\b/i,
  /\bnão reembolsável\b/i,
  /\bniet[-\s]restitueerbaar\b/i,
];

const FREE_CANCELLATION = [
  /\bfree cancell?ation\b/i,
  /\bfully refundable\b/i,
  /\bkostenlose[rn]? stornierung\b/i,
  /\bkostenlos stornierbar\b/i,
  /\bannulation gratuite\b/i,
  /\bcancelaci[oó]n gratuita\b/i,
  /\bcancellazione gratuita\b/i,
  /\bcancelamento (?:gr[aá]tis|gratuito)\b/i,
  /\bgratis annuleren\b/i,
];

/**
 * A denial of the positive words, not a refund term: "No free cancellation", "without free
 * cancellation", "not fully refundable", "free cancellation not available".
 */
const DENIED = [
  /\b(?:no|not|without|keine|sans|sin|senza|sem|geen)\s+(?:free cancell?ation|fully refundable|kostenlose|annulation|cancelaci|cancellazione|cancelamento|gratis)/i,
  /\bfree cancell?ation\s+(?:is\s+)?(?:not\b|unavailable\b)/i,
];

export function refundableOf(text: string | null): boolean | null {
  if (text === null) return null;
  const denies = NON_REFUNDABLE.some((re) => re.test(text));
  const grants = !DENIED.some((re) => re.test(text)) && FREE_CANCELLATION.some((re) => re.test(text));
  // Both at once ("free cancellation until 1 Jan, then non-refundable", "non-refundable deposit,
  // free cancellation") state a deadline or a part, not the rate's terms: unknown.
  if (denies && grants) return null;
  if (denies) return false;
  return grants ? true : null;
}
