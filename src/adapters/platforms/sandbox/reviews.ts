import { addDays } from '../../../domain/dates.js';
import type { Review } from '../../../domain/model/review.js';
import { RATING_SCALE } from '../../../domain/platforms.js';
import type { SandboxPlatform } from './ids.js';
import { rng } from './random.js';

/** Review texts per language: the sandbox needs believable variety, not literature. */
const PHRASES: Record<string, { good: string[]; bad: string[]; titles: string[]; reply: string }> = {
  en: { good: ['Great location, close to everything.', 'Spotless and very comfortable.', 'The host was friendly and helpful.', 'Lovely view and quiet at night.'], bad: ['The street was a bit noisy.', 'Wi-Fi was slow at times.', 'The shower pressure was weak.'], titles: ['Wonderful stay', 'Good value', 'Would come back', 'Nice but noisy'], reply: 'Thank you for staying with us!' },
  fr: { good: ['Très bien situé, proche de tout.', 'Propre et confortable.', 'Hôte accueillant et disponible.'], bad: ['Un peu bruyant la nuit.', 'Le wifi était lent.'], titles: ['Séjour parfait', 'Très bon rapport qualité-prix'], reply: 'Merci pour votre séjour !' },
  de: { good: ['Tolle Lage, alles zu Fuß erreichbar.', 'Sehr sauber und gemütlich.', 'Freundlicher Gastgeber.'], bad: ['Etwas laut in der Nacht.', 'Das WLAN war langsam.'], titles: ['Super Aufenthalt', 'Gerne wieder'], reply: 'Vielen Dank für Ihren Aufenthalt!' },
  es: { good: ['Ubicación excelente.', 'Muy limpio y cómodo.', 'El anfitrión fue muy amable.'], bad: ['Algo de ruido por la noche.', 'El wifi iba lento.'], titles: ['Estancia estupenda', 'Muy recomendable'], reply: '¡Gracias por su estancia!' },
  it: { good: ['Posizione ottima.', 'Pulitissimo e confortevole.', 'Host gentilissimo.'], bad: ['Un po’ rumoroso la notte.'], titles: ['Soggiorno splendido'], reply: 'Grazie per il soggiorno!' },
  pt: { good: ['Localização excelente.', 'Muito limpo e confortável.', 'Anfitrião muito simpático.'], bad: ['Algum barulho à noite.'], titles: ['Estadia ótima'], reply: 'Obrigado pela estadia!' },
};
const LANGS = ['en', 'en', 'en', 'en', 'fr', 'de', 'es', 'it', 'pt'];
const AUTHORS = ['Alex', 'Bea', 'Chen', 'Dana', 'Emil', 'Fatima', 'Gabe', 'Hana', 'Ivan', 'Julia', 'Kofi', 'Lena', 'Marco', 'Noor', 'Oscar', 'Priya'];
const TRIP_TYPES = ['couple', 'family', 'solo', 'friends', 'business'];

/** Locales a review of each language may carry; a bare language is a platform stating no region. */
const LOCALES: Record<string, string[]> = { en: ['en', 'en-GB', 'en-US'], fr: ['fr', 'fr-FR', 'fr-CA'], de: ['de', 'de-DE', 'de-AT'], es: ['es', 'es-ES', 'es-MX'], it: ['it'], pt: ['pt-PT', 'pt-BR'] };

/** Reviews are dated back from a fixed day, so the sandbox answers the same bytes every day. */
const NEWEST_REVIEW = '2026-10-30';
export const MAX_SANDBOX_REVIEWS = 150;

function rating(r: ReturnType<typeof rng>, platform: SandboxPlatform): number {
  if (RATING_SCALE[platform] === 10) return r.float(5, 10, 1);
  return r.pick([5, 5, 5, 5, 4, 4, 3, 2]);
}

/** The i-th newest review of a listing. */
export function sandboxReview(platform: SandboxPlatform, listingId: string, i: number): Review {
  const r = rng(`${platform}:${listingId}:review:${i}`);
  const language = r.pick(LANGS);
  const bank = PHRASES[language]!;
  const value = rating(r, platform);
  const share = value / RATING_SCALE[platform];
  const good = r.sample(bank.good, 2).join(' ');
  const bad = share < 0.8 ? r.pick(bank.bad) : null;
  const split = platform === 'booking';
  // Drawn apart from the review's other values, so those stay what they were: the locale, and one
  // review in twenty that is a rating with no text at all (text null, as live platforms send it).
  const extra = rng(`${platform}:${listingId}:review-extra:${i}`);
  const locale = extra.pick(LOCALES[language]!);
  const ratingOnly = extra.chance(0.05);
  return {
    platform,
    listingId,
    reviewId: `${platform.slice(0, 2)}r_${listingId.slice(-8)}_${i + 1}`,
    rating: value,
    ratingScale: RATING_SCALE[platform],
    title: platform === 'booking' || platform === 'vrbo' ? r.pick(bank.titles) : null,
    text: ratingOnly ? null : [good, bad].filter(Boolean).join(' '),
    author: r.pick(AUTHORS),
    date: addDays(NEWEST_REVIEW, -(i * 3 + r.int(0, 2))),
    tripType: platform === 'booking' || platform === 'vrbo' ? r.pick(TRIP_TYPES) : null,
    language,
    locale,
    ownerResponse: r.chance(0.3) ? bank.reply : null,
    liked: split && !ratingOnly ? good : null,
    disliked: split && !ratingOnly ? bad : null,
  };
}
