/**
 * A travel time as Google prints it, in whatever language the answer is in: "9 min", "1 hr 5 min",
 * "2 hrs", "1 h 7 min", "1 Std. 7 Min.", "1 h 07", "1h07", "67 min", "2 heures", "1 hora 5 minutos".
 * Only an hours part, a minutes part, or both in that order are read; anything else ("about 5",
 * "5-10 min", "1,5 h", "1:07", which may be minutes and seconds) is null, never a guess, and the
 * caller names the text in a warning.
 */
const HOURS = String.raw`h|hrs?|hours?|std\.?|stunden?|heures?|horas?|ore|ora|uur|u|tim(?:mar|me)?|t`;
const MINUTES = String.raw`min(?:s|\.|utes?|uten?|utos?|uti)?`;

const HOURS_AND_MINUTES = new RegExp(String.raw`^(?:(\d{1,3})\s*(?:${HOURS})(?![\p{L}]))?\s*(?:(\d{1,4})\s*(?:${MINUTES})(?![\p{L}]))?$`, 'iu');
/** "1 h 07", "1h07": minutes written without a unit after the hours, two digits under 60. */
const HOURS_THEN_DIGITS = new RegExp(String.raw`^(\d{1,3})\s*(?:${HOURS})\s*([0-5]\d)$`, 'iu');

export function minutesOf(text: string): number | null {
  const t = text.replace(/[\u00a0\u202f]/g, ' ').trim();
  const short = HOURS_THEN_DIGITS.exec(t);
  if (short) return Number(short[1]) * 60 + Number(short[2]);
  const m = HOURS_AND_MINUTES.exec(t);
  if (!m || (m[1] === undefined && m[2] === undefined)) return null;
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
}
