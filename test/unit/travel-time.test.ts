import { describe, expect, it } from 'vitest';
import { parseNearby } from '../../src/adapters/platforms/google/nearby.js';
import { minutesOf } from '../../src/adapters/platforms/google/travel-time.js';
import { FieldWarnings } from '../../src/adapters/platforms/parse-support.js';

/**
 * Issue 34 item 6: travel times Google prints in other languages. The answer is shaped like
 * serpapi-google_hotels-property-details-london.json's `nearby_places[]`, as Google answers with
 * hl=de and hl=fr (Lisbon, around the property's pin).
 */
const place = (name: string, lat: number, lng: number, ways: [string, string][]) => ({
  category: 'Point of interest',
  name,
  link: 'https://www.google.com/search?q=x',
  transportations: ways.map(([type, duration]) => ({ type, duration })),
  gps_coordinates: { latitude: lat, longitude: lng },
});
const AT = { lat: 38.7139, lng: -9.1394, city: null, region: null, country: null };

describe('travel times in other locales', () => {
  it('reads hours and minutes whatever the language; what is ambiguous is null', () => {
    const read: [string, number | null][] = [
      ['9 min', 9], ['1 hr 5 min', 65], ['2 hrs', 120], ['67 min', 67],
      ['1 h 7 min', 67], ['1 Std. 7 Min.', 67], ['1 h 07', 67], ['1h07', 67], ['2 Std.', 120], ['45 Min.', 45],
      ['1 heure 5 minutes', 65], ['1 hora 5 minutos', 65], ['1 uur 5 min', 65], ['1 ora 5 minuti', 65], ['1\u00a0h\u00a07\u00a0min', 67],
      ['about 5', null], ['5-10 min', null], ['1,5 h', null], ['1:07', null], ['1 h 75', null], ['7', null], ['', null],
    ];
    expect(read.map(([text]) => minutesOf(text))).toEqual(read.map(([, m]) => m));
  });

  it('nearby: the times of a German answer are read, and the unreadable ones are named in a warning, never dropped silently', () => {
    const answer = {
      nearby_places: [
        place('Praça do Comércio', 38.7075, -9.1364, [['Öffentliche Verkehrsmittel', '9 Min.'], ['Zu Fuß', '1 Std. 7 Min.']]),
        place('Flughafen Lissabon', 38.7742, -9.1342, [['Taxi', '1 h 07'], ['Öffentliche Verkehrsmittel', 'ca. 40 Min.'], ['Zu Fuß', '1,5 Std.']]),
      ],
    };
    const w = new FieldWarnings('google');
    const nearby = parseNearby(answer, AT, w)!;
    expect(nearby.map((p) => p.travelTime)).toEqual([
      [{ mode: 'Öffentliche Verkehrsmittel', minutes: 9 }, { mode: 'Zu Fuß', minutes: 67 }],
      [{ mode: 'Taxi', minutes: 67 }],
    ]);
    expect(w.list).toEqual([
      {
        code: 'field_unavailable',
        message: 'nearby.travelTime: 2 travel time(s) google states could not be read and were left out: Öffentliche Verkehrsmittel "ca. 40 Min." to Flughafen Lissabon, Zu Fuß "1,5 Std." to Flughafen Lissabon',
        platform: 'google',
      },
    ]);
  });
});
