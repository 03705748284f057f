/** Places nearby kept in the compact view: the nearest few answer "how far from ..."; the rest is in the full view. */
export const NEARBY_IN_COMPACT = 5;
/** Topics reviewers mention kept in the compact view: the most mentioned few say what the reviews are about. */
export const MENTIONS_IN_COMPACT = 5;

/**
 * Issue 16 item 3: the compact view, written for a model that pays per token. Not short keys:
 * the same names, minus what carries no information (null and empty fields), what repeats
 * (platform and platformListingId are inside id; place, currency and nights are the call's),
 * what a model rarely reads (the URL, amenities and images unless fields asks for them, and then
 * only the first image; the fee breakdown; per-leg bookkeeping and the wording of informational
 * warnings in meta). get_listing has the rest. Its schema is `ShapedAnswer` (model/shaped.ts).
 */
/** How many offers the compact view keeps: the cheapest, which a model decides on. */
export const COMPACT_OFFERS = 5;

/** Drops null, undefined, empty strings, empty lists and objects left empty, at every depth. */
export function dropEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropEmpty);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const kept = dropEmpty(v);
    const empty = kept === null || kept === undefined || kept === '' || (Array.isArray(kept) && kept.length === 0) || (typeof kept === 'object' && !Array.isArray(kept) && Object.keys(kept as object).length === 0);
    if (!empty) out[k] = kept;
  }
  return out;
}

/** One item (a Property, possibly projected by `fields`) in the compact view. */
export function compactItem(item: unknown, fields?: readonly string[]): unknown {
  if (item === null || typeof item !== 'object') return item;
  const { platformListingId: _id, platform: _platform, url: _url, images, host: _host, price, starRating, location, amenities, nearby, reviewSummary, ...rest } = item as Record<string, unknown>;
  const compact: Record<string, unknown> = { ...rest };
  if (Array.isArray(nearby)) compact.nearby = nearby.slice(0, NEARBY_IN_COMPACT);
  if (reviewSummary && typeof reviewSummary === 'object') compact.reviewSummary = compactVerdict(reviewSummary as Record<string, unknown>);
  // Amenities are a search filter (amenities=) and in get_listing; kept when asked for by fields.
  if (fields?.includes('amenities')) compact.amenities = amenities;
  if (location && typeof location === 'object') {
    // The place is in meta.resolved; each item keeps only where it is in it.
    const { lat, lng } = location as { lat?: number | null; lng?: number | null };
    compact.location = { lat: round4(lat), lng: round4(lng) };
  }
  // One image, and only when asked for (fields=images): a URL costs a model ~20 tokens it cannot look at.
  if (fields?.includes('images') && Array.isArray(images) && images.length > 0) compact.image = images[0];
  if (price && typeof price === 'object') {
    // Currency and nights are the call's (meta.currency, the dates asked); fees are in the full view.
    const { fees: _fees, currency: _currency, nights: _nights, offers, ...p } = price as Record<string, unknown>;
    // Offers and context are what a model decides a stay on (issue 25): kept, the list trimmed.
    compact.price = Array.isArray(offers) ? { ...p, offers: offers.slice(0, COMPACT_OFFERS).map(({ currency: _c, ...o }: Record<string, unknown>) => o) } : p;
  }
  // Hotels' stars are kept (rentals have none, so they drop out as null).
  if (starRating !== undefined) compact.starRating = starRating;
  return dropEmpty(compact);
}

/**
 * The reviews' verdict a model reads: total, average, histogram and the most mentioned topics.
 * The rating scale is the item's; category scores, trip types and basis (always platform on a
 * listing) are in the full view.
 */
function compactVerdict(summary: Record<string, unknown>): Record<string, unknown> {
  const { count, average, histogram, mentions } = summary;
  return { count, average, histogram, mentions: Array.isArray(mentions) ? mentions.slice(0, MENTIONS_IN_COMPACT) : mentions };
}

const round4 = (v: number | null | undefined) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 : v);

/** Warnings a model acts on keep their message; the others are named by code (and platform). */
const ACTIONABLE = new Set(['ambiguous_location', 'no_results', 'unknown_parameter', 'deprecated_usage']);

/** The meta a model needs: what it cost, what to fetch next, what to heed. Per-leg lines only for legs that failed. */
export function compactMeta(meta: Record<string, unknown>): Record<string, unknown> {
  const { platformResults, pagination, cached: _c, platforms: _p, ...rest } = meta;
  const failed = Array.isArray(platformResults) ? platformResults.filter((r) => (r as { status: string }).status !== 'ok' && (r as { status: string }).status !== 'empty') : [];
  const next = (pagination as { nextCursor?: string | null } | null)?.nextCursor ?? null;
  const warnings = Array.isArray(rest.warnings) ? compactWarnings(rest.warnings as { code: string; message: string; platform?: string }[]) : rest.warnings;
  return dropEmpty({ ...rest, warnings, nextCursor: next, failedPlatforms: failed }) as Record<string, unknown>;
}

/** Informational warnings once per code, with the platforms that raised them. */
function compactWarnings(warnings: { code: string; message: string; platform?: string }[]): unknown[] {
  const byCode = new Map<string, { code: string; platforms: string[] }>();
  const out: unknown[] = [];
  for (const w of warnings) {
    if (ACTIONABLE.has(w.code)) {
      out.push(w);
      continue;
    }
    let entry = byCode.get(w.code);
    if (!entry) byCode.set(w.code, (entry = { code: w.code, platforms: [] }));
    if (w.platform && !entry.platforms.includes(w.platform)) entry.platforms.push(w.platform);
  }
  return [...out, ...byCode.values()];
}
