import type { Warning } from '../model/common.js';
import type { Property } from '../model/property.js';
import type { Platform } from '../platforms.js';
import type { SearchArea } from './area.js';
import type { LatLng } from './great-circle.js';
import { areaAppliedWarning, areaFilter, areaUncheckable, areaUnsupported, distanceOf } from './place-items.js';

/**
 * One search leg's geography, for any adapter (live or sandbox): which centre it measures from,
 * whether it can honour the area, each parsed item's `distanceKm`, the area filter, and the
 * warnings the leg gives once. Adapters call `place` on every parsed item before their own
 * filters and sorts, so `distance_asc` and the area compose with their paging.
 */
export class LegGeo {
  /** Why this leg returns nothing for the area (see areaUnsupported), or null. */
  readonly unsupported: Warning | null;
  readonly filterName: 'radiusKm' | 'bbox' | null;
  private readonly test: ((p: Property) => boolean) | null;
  private seen = 0;
  private unplaced = 0;

  constructor(
    private readonly platform: Platform,
    private readonly area: SearchArea,
    /** The centre this leg searched around: the area's, else the place the platform located. */
    private readonly centre: LatLng | null = area.centre,
  ) {
    this.unsupported = areaUnsupported(platform, area, centre);
    const filter = areaFilter(area, centre);
    this.filterName = filter?.name ?? null;
    this.test = filter?.keep ?? null;
  }

  /** The item with its distanceKm from the centre (null without coordinates or centre). */
  place(item: Property): Property {
    const distanceKm = distanceOf(item, this.centre);
    this.seen++;
    if (distanceKm === null) this.unplaced++;
    return { ...item, distanceKm };
  }

  /** Inside the area (always true without one). */
  keep(item: Property): boolean {
    return this.test === null || this.test(item);
  }

  /**
   * What the leg says once: distances it could not give, results left out of the area for want of
   * coordinates (they are not in the answer, so no null distance to explain), the area applied
   * after retrieval (unless no result could be tested).
   */
  warnings(): Warning[] {
    const p = this.platform;
    const out: Warning[] = [];
    if (this.seen > 0 && !this.centre) {
      out.push({ code: 'distance_unavailable', message: `${p}: distanceKm is null: the answer does not state the coordinates of the place it searched; send location as "lat,lng" or a bbox to measure from a point.`, platform: p });
    } else if (this.unplaced > 0 && this.filterName) {
      out.push(areaUncheckable(p, this.filterName, this.unplaced, this.seen));
    } else if (this.unplaced > 0) {
      out.push({ code: 'distance_unavailable', message: `${p}: distanceKm is null for ${this.unplaced} of ${this.seen} items: the platform gives them no coordinates.`, platform: p });
    }
    const applied = this.seen > 0 && this.unplaced === this.seen ? null : areaAppliedWarning(p, this.area);
    if (applied) out.push(applied);
    return out;
  }
}
