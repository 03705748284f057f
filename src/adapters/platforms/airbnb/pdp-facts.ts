import type { Amenity } from '../../../domain/model/property.js';
import { dig, str } from '../parse-support.js';
import { amenityOf } from './taxonomy.js';

/**
 * Readers for the pieces of a `StaysPdpSections` response: the sections list keyed by
 * `sectionComponentType`, the SBUI overview items ("4 guests", "1 bedroom", "1 bath"), the
 * metadata's sharing config and logging context, and country names.
 */
export function sectionsOf(json: unknown): unknown[] | null {
  const list = dig(json, 'data', 'presentation', 'stayProductDetailPage', 'sections', 'sections');
  return Array.isArray(list) ? list : null;
}

export function section(sections: unknown[], type: string): unknown {
  return dig(sections.find((s) => dig(s, 'sectionComponentType') === type), 'section');
}

export function metadata(json: unknown): unknown {
  return dig(json, 'data', 'presentation', 'stayProductDetailPage', 'sections', 'metadata');
}

/** The titles of the SBUI section `sectionId` (OVERVIEW_DEFAULT_V2, HOST_OVERVIEW_DEFAULT). */
export function sbuiSection(json: unknown, sectionId: string): unknown {
  const list = dig(json, 'data', 'presentation', 'stayProductDetailPage', 'sections', 'sbuiData', 'sectionConfiguration', 'root', 'sections');
  return Array.isArray(list) ? dig(list.find((s) => dig(s, 'sectionId') === sectionId), 'sectionData') : undefined;
}

export function overviewTitles(json: unknown): string[] {
  const items = dig(sbuiSection(json, 'OVERVIEW_DEFAULT_V2'), 'overviewItems');
  return Array.isArray(items) ? items.map((i) => str(dig(i, 'title'))).filter((t): t is string => t !== null) : [];
}

/**
 * A count from short facts ("4 guests", "1 bedroom", "Studio", "1.5 baths", "Half-bath"): the
 * first fact that names the unit. `unit` is matched as a whole word, singular or plural.
 */
export function countIn(facts: readonly string[], unit: 'guest' | 'bedroom' | 'bath'): number | null {
  for (const fact of facts) {
    const f = fact.trim();
    if (unit === 'bedroom' && /^studio$/i.test(f)) return 0;
    if (unit === 'bath' && /^(private |shared )?half-bath$/i.test(f)) return 0.5;
    const re = unit === 'bath' ? /^(\d+(?:[.,]\d)?)\s+(private |shared |)(bath|baths|bathroom|bathrooms)$/i : new RegExp(`^(\\d+)\\+?\\s+${unit}s?$`, 'i');
    const m = re.exec(f);
    if (m) return Number(m[1]!.replace(',', '.'));
  }
  return null;
}

/** The facts of the sharing title "Rental unit in Lyon · ★4.91 · 1 bedroom · 2 beds · 1 bath". */
export function sharingFacts(json: unknown): string[] {
  const title = str(dig(metadata(json), 'sharingConfig', 'title'));
  return title ? title.split('·').map((s) => s.trim()) : [];
}

/** Canonical amenities of the AMENITIES_DEFAULT section (preview and "see all" groups); `available: false` is skipped. */
export function amenitiesOf(sectionData: unknown): Amenity[] | null {
  const groups = [dig(sectionData, 'seeAllAmenitiesGroups'), dig(sectionData, 'previewAmenitiesGroups')].filter(Array.isArray).flat();
  if (groups.length === 0) return null;
  const out = new Set<Amenity>();
  for (const g of groups) {
    const list = dig(g, 'amenities');
    if (!Array.isArray(list)) continue;
    for (const a of list) {
      const title = str(dig(a, 'title'));
      if (title === null || dig(a, 'available') === false) continue;
      const canonical = amenityOf(title);
      if (canonical) out.add(canonical);
    }
  }
  return [...out];
}

export function photosOf(sections: unknown[]): string[] | null {
  const media = dig(section(sections, 'PHOTO_TOUR_SCROLLABLE'), 'mediaItems') ?? dig(section(sections, 'HERO_DEFAULT'), 'previewImages');
  if (!Array.isArray(media)) return null;
  return [...new Set(media.map((m) => str(dig(m, 'baseUrl'))).filter((u): u is string => u !== null))];
}

let countryByName: Map<string, string> | null = null;

/** "France" → "FR" (English names, from the runtime's region names; the first code of a name wins). */
export function countryCode(name: string): string | null {
  if (countryByName === null) {
    countryByName = new Map();
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        try {
          const n = names.of(code);
          if (n && n !== code && !countryByName.has(n.toLowerCase())) countryByName.set(n.toLowerCase(), code); // FR before FX
        } catch {
          /* not a region code */
        }
      }
    }
  }
  return countryByName.get(name.trim().toLowerCase()) ?? null;
}
