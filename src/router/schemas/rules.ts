import type { z } from 'zod';
import type { ErrorCode } from '../../domain/errors.js';
import type { SubCode } from '../../domain/error-catalogue.js';
import { daysBetween } from '../../domain/dates.js';
import { MAX_STAY_NIGHTS } from './common-input.js';
import { isBox, parseBbox } from '../../domain/geo/area.js';

/**
 * Cross-field rules of spec section 4, written once and shared by every input schema. Each
 * issue carries the API error code it maps to (`params.apiCode`), read by the error mapper.
 */
export function fail(ctx: z.RefinementCtx, param: string, message: string, apiCode: ErrorCode = 'invalid_request', subCode?: SubCode): void {
  ctx.addIssue({ code: 'custom', path: [param], message, params: { apiCode, subCode } });
}

interface StayFields {
  checkIn?: string | undefined;
  checkOut?: string | undefined;
}

/** checkIn and checkOut come together (or, when `required`, always), in order, at most a year apart. */
export function checkStay(ctx: z.RefinementCtx, v: StayFields, required: boolean): void {
  if (required || v.checkIn || v.checkOut) {
    if (!v.checkIn) return fail(ctx, 'checkIn', v.checkOut ? 'checkIn is required with checkOut.' : 'checkIn is required.', 'missing_parameter');
    if (!v.checkOut) return fail(ctx, 'checkOut', v.checkIn ? 'checkOut is required with checkIn.' : 'checkOut is required.', 'missing_parameter');
    const nights = daysBetween(v.checkIn, v.checkOut);
    if (nights < 1) return fail(ctx, 'checkOut', 'checkOut must be after checkIn.', 'invalid_request', 'date_order');
    if (nights > MAX_STAY_NIGHTS) return fail(ctx, 'checkOut', `A stay is at most ${MAX_STAY_NIGHTS} nights.`, 'invalid_request', 'stay_too_long');
  }
}

/** `children` must equal the number of childAges given (spec 4.1). */
export function checkChildren(ctx: z.RefinementCtx, v: { children: number; childAges?: number[] | undefined }): void {
  const ages = v.childAges?.length ?? 0;
  if (ages !== v.children) {
    fail(ctx, 'childAges', `childAges has ${ages} entries but children is ${v.children}; give one age per child.`, 'invalid_request', 'child_ages_mismatch');
  }
}

/**
 * Exactly one identification form (spec 4.3, 4.7): none is missing_parameter, more than one is
 * mutually_exclusive_params.
 */
export function checkExactlyOne(ctx: z.RefinementCtx, v: Record<string, unknown>, keys: string[]): void {
  const given = keys.filter((k) => v[k] !== undefined);
  if (given.length === 0) fail(ctx, keys[0]!, `One of ${keys.join(', ')} is required.`, 'missing_parameter');
  else if (given.length > 1) fail(ctx, given[1]!, `Give only one of ${given.join(', ')}.`, 'mutually_exclusive_params');
}

/** "lat,lng" in decimal degrees: a place given by coordinates rather than by name. */
const COORDINATES = /^\s*([-+]?\d+(?:\.\d+)?)\s*,\s*([-+]?\d+(?:\.\d+)?)\s*$/;

/**
 * A location given as coordinates must be on Earth: latitude -90..90, longitude -180..180
 * (`91,0` is a 400 naming the parameter, not an empty search). Names pass untouched.
 */
export function checkCoordinates(ctx: z.RefinementCtx, param: string, value: string | undefined): void {
  const m = value === undefined ? null : COORDINATES.exec(value);
  if (!m) return;
  const [lat, lng] = [Number(m[1]), Number(m[2])];
  if (Math.abs(lat) > 90) fail(ctx, param, `Latitude ${m[1]} is out of range: "lat,lng" needs a latitude from -90 to 90.`);
  else if (Math.abs(lng) > 180) fail(ctx, param, `Longitude ${m[2]} is out of range: "lat,lng" needs a longitude from -180 to 180.`);
}

/**
 * Issue 25 item 1: a search covers a place (`location`, optionally with `radiusKm`) or a box
 * (`bbox`), never both; a box that is not four numbers in range is a 400 naming `bbox`.
 */
export function checkArea(ctx: z.RefinementCtx, v: { location?: string | undefined; radiusKm?: number | undefined; bbox?: string | undefined }): void {
  if (v.bbox !== undefined) {
    if (v.location !== undefined) return fail(ctx, 'bbox', 'Give either location or bbox, not both: bbox is an alternative to location.', 'mutually_exclusive_params');
    if (v.radiusKm !== undefined) return fail(ctx, 'radiusKm', 'Give either radiusKm (with a location) or bbox, not both.', 'mutually_exclusive_params');
    const box = parseBbox(v.bbox);
    if (!isBox(box)) fail(ctx, 'bbox', box.problem);
  } else if (v.location === undefined) {
    fail(ctx, 'location', 'location is required (a place name or "lat,lng"), unless bbox is given.', 'missing_parameter');
  }
}
