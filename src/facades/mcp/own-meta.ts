import { z } from 'zod';
import type { Meta } from '../../domain/model/common.js';
import type { Operation } from '../../domain/platforms.js';

/**
 * The meta fields only some operations answer, with the operations that do: settle()
 * (router/billing/envelope.ts) adds each one when its operation's result set it; `resolved` holds
 * the place and area for search (operations/resolved.ts) and the property for price-compare. A
 * tool's output schema states its own operation's only: the others are never in its answers, and
 * stating them cost every tool about 7 kB (the review summary and the resolved place above all).
 */
const OWN_META: Partial<Record<keyof Meta, Partial<Record<Operation, true | readonly string[]>>>> = {
  deduplicated: { search: true },
  resolved: { search: ['location', 'area'], priceCompare: ['property'] },
  cheapestStays: { availability: true },
  reviewSummary: { reviews: true },
};

/** `{ data, meta }` with meta (each variant of it) cut to the fields `operation` answers. */
export function withOwnMeta(output: z.ZodObject, operation: Operation): z.ZodObject {
  const cut = (meta: z.ZodType): z.ZodType => {
    if (meta instanceof z.ZodUnion) return z.union((meta.options as z.ZodType[]).map(cut));
    if (!(meta instanceof z.ZodObject)) return meta;
    const shape: Record<string, z.ZodType> = { ...meta.shape };
    for (const [field, ops] of Object.entries(OWN_META)) {
      const own = ops[operation];
      if (!(field in shape)) continue;
      if (!own) delete shape[field];
      else if (own !== true) shape[field] = partsOf(shape[field]!, own);
    }
    return z.object(shape).strict();
  };
  const shape = output.shape as { data: z.ZodType; meta: z.ZodType };
  const narrowed = z.object({ data: shape.data, meta: cut(shape.meta) });
  return output.description ? narrowed.describe(output.description) : narrowed;
}

/** An optional object field cut to some of its own fields. */
function partsOf(field: z.ZodType, parts: readonly string[]): z.ZodType {
  const inner = (field instanceof z.ZodOptional ? field.unwrap() : field) as z.ZodObject;
  const picked = z.object(Object.fromEntries(parts.map((p) => [p, inner.shape[p] as z.ZodType]))).strict();
  return field instanceof z.ZodOptional ? picked.optional() : picked;
}

/**
 * The item fields only one operation answers (domain/model/property.ts states each one's): a
 * search item has its distance and the same home on other platforms, a listing the places nearby
 * and the reviews' verdict. Each tool's item states its own only, as for meta (about 2 kB).
 */
const OWN_ITEM_FIELDS: Record<string, Operation> = { distanceKm: 'search', alsoOn: 'search', nearby: 'listing', reviewSummary: 'listing' };

/** An item cut to the fields `operation` answers. */
export function ownItem(item: z.ZodObject, operation: Operation): z.ZodObject {
  const others = Object.keys(OWN_ITEM_FIELDS).filter((field) => OWN_ITEM_FIELDS[field] !== operation && field in item.shape);
  const mask: Record<string, true> = Object.fromEntries(others.map((field) => [field, true]));
  return item.omit(mask as Parameters<typeof item.omit>[0]);
}
