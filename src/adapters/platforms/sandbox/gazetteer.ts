/**
 * The places the sandbox knows. A search for any other place answers 200 with no results and a
 * `no_results` warning, which is how a client tests its empty path.
 */
export interface City {
  name: string;
  region: string;
  country: string;
  lat: number;
  lng: number;
  /** Typical nightly rate in USD, so prices differ believably between places. */
  baseRate: number;
  neighbourhoods: readonly string[];
}

export const CITIES: readonly City[] = [
  { name: 'Lisbon', region: 'Lisbon', country: 'PT', lat: 38.7223, lng: -9.1393, baseRate: 120, neighbourhoods: ['Alfama', 'Baixa', 'Chiado', 'Príncipe Real', 'Belém'] },
  { name: 'Porto', region: 'Porto', country: 'PT', lat: 41.1579, lng: -8.6291, baseRate: 100, neighbourhoods: ['Ribeira', 'Cedofeita', 'Bonfim', 'Foz'] },
  { name: 'Madrid', region: 'Community of Madrid', country: 'ES', lat: 40.4168, lng: -3.7038, baseRate: 130, neighbourhoods: ['Malasaña', 'Salamanca', 'La Latina', 'Chueca'] },
  { name: 'Barcelona', region: 'Catalonia', country: 'ES', lat: 41.3874, lng: 2.1686, baseRate: 150, neighbourhoods: ['Gràcia', 'El Born', 'Eixample', 'Barceloneta'] },
  { name: 'Paris', region: 'Île-de-France', country: 'FR', lat: 48.8566, lng: 2.3522, baseRate: 210, neighbourhoods: ['Le Marais', 'Montmartre', 'Saint-Germain', 'Bastille'] },
  { name: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'FR', lat: 45.764, lng: 4.8357, baseRate: 110, neighbourhoods: ['Vieux Lyon', 'Croix-Rousse', 'Presqu’île', 'Confluence'] },
  { name: 'Nice', region: "Provence-Alpes-Côte d'Azur", country: 'FR', lat: 43.7102, lng: 7.262, baseRate: 160, neighbourhoods: ['Vieux Nice', 'Le Port', 'Cimiez', 'Promenade'] },
  { name: 'London', region: 'England', country: 'GB', lat: 51.5072, lng: -0.1276, baseRate: 220, neighbourhoods: ['Soho', 'Shoreditch', 'Kensington', 'Camden', 'Southwark'] },
  { name: 'Edinburgh', region: 'Scotland', country: 'GB', lat: 55.9533, lng: -3.1883, baseRate: 150, neighbourhoods: ['Old Town', 'New Town', 'Leith', 'Stockbridge'] },
  { name: 'Dublin', region: 'Leinster', country: 'IE', lat: 53.3498, lng: -6.2603, baseRate: 180, neighbourhoods: ['Temple Bar', 'Ranelagh', 'Portobello', 'Smithfield'] },
  { name: 'Amsterdam', region: 'North Holland', country: 'NL', lat: 52.3676, lng: 4.9041, baseRate: 200, neighbourhoods: ['Jordaan', 'De Pijp', 'Oost', 'Centrum'] },
  { name: 'Berlin', region: 'Berlin', country: 'DE', lat: 52.52, lng: 13.405, baseRate: 120, neighbourhoods: ['Mitte', 'Kreuzberg', 'Prenzlauer Berg', 'Neukölln'] },
  { name: 'Munich', region: 'Bavaria', country: 'DE', lat: 48.1351, lng: 11.582, baseRate: 160, neighbourhoods: ['Altstadt', 'Schwabing', 'Haidhausen', 'Maxvorstadt'] },
  { name: 'Vienna', region: 'Vienna', country: 'AT', lat: 48.2082, lng: 16.3738, baseRate: 140, neighbourhoods: ['Innere Stadt', 'Neubau', 'Leopoldstadt', 'Wieden'] },
  { name: 'Prague', region: 'Prague', country: 'CZ', lat: 50.0755, lng: 14.4378, baseRate: 95, neighbourhoods: ['Old Town', 'Malá Strana', 'Vinohrady', 'Žižkov'] },
  { name: 'Rome', region: 'Lazio', country: 'IT', lat: 41.9028, lng: 12.4964, baseRate: 170, neighbourhoods: ['Trastevere', 'Monti', 'Prati', 'Testaccio'] },
  { name: 'Florence', region: 'Tuscany', country: 'IT', lat: 43.7696, lng: 11.2558, baseRate: 175, neighbourhoods: ['Santa Croce', 'Oltrarno', 'San Niccolò', 'Duomo'] },
  { name: 'Athens', region: 'Attica', country: 'GR', lat: 37.9838, lng: 23.7275, baseRate: 110, neighbourhoods: ['Plaka', 'Koukaki', 'Kolonaki', 'Psyrri'] },
  { name: 'Valletta', region: 'South Eastern', country: 'MT', lat: 35.8989, lng: 14.5146, baseRate: 130, neighbourhoods: ['Valletta', 'Sliema', 'St. Julian’s', 'Floriana'] },
  { name: 'Copenhagen', region: 'Capital Region', country: 'DK', lat: 55.6761, lng: 12.5683, baseRate: 210, neighbourhoods: ['Nørrebro', 'Vesterbro', 'Indre By', 'Christianshavn'] },
  { name: 'New York', region: 'New York', country: 'US', lat: 40.7128, lng: -74.006, baseRate: 280, neighbourhoods: ['SoHo', 'Williamsburg', 'Upper West Side', 'Harlem', 'Chelsea'] },
  { name: 'Chicago', region: 'Illinois', country: 'US', lat: 41.8781, lng: -87.6298, baseRate: 190, neighbourhoods: ['Wicker Park', 'Lincoln Park', 'River North', 'Logan Square'] },
  { name: 'San Francisco', region: 'California', country: 'US', lat: 37.7749, lng: -122.4194, baseRate: 260, neighbourhoods: ['Mission', 'Nob Hill', 'Haight-Ashbury', 'SoMa'] },
  { name: 'Miami', region: 'Florida', country: 'US', lat: 25.7617, lng: -80.1918, baseRate: 230, neighbourhoods: ['South Beach', 'Brickell', 'Wynwood', 'Coconut Grove'] },
  { name: 'Mexico City', region: 'CDMX', country: 'MX', lat: 19.4326, lng: -99.1332, baseRate: 90, neighbourhoods: ['Roma Norte', 'Condesa', 'Coyoacán', 'Polanco'] },
  { name: 'Tokyo', region: 'Tokyo', country: 'JP', lat: 35.6762, lng: 139.6503, baseRate: 170, neighbourhoods: ['Shinjuku', 'Shibuya', 'Asakusa', 'Ginza'] },
  { name: 'Bangkok', region: 'Bangkok', country: 'TH', lat: 13.7563, lng: 100.5018, baseRate: 70, neighbourhoods: ['Sukhumvit', 'Silom', 'Riverside', 'Ari'] },
  { name: 'Bali', region: 'Bali', country: 'ID', lat: -8.4095, lng: 115.1889, baseRate: 85, neighbourhoods: ['Ubud', 'Seminyak', 'Canggu', 'Uluwatu'] },
  { name: 'Sydney', region: 'New South Wales', country: 'AU', lat: -33.8688, lng: 151.2093, baseRate: 210, neighbourhoods: ['Surry Hills', 'Bondi', 'The Rocks', 'Newtown'] },
  { name: 'Cape Town', region: 'Western Cape', country: 'ZA', lat: -33.9249, lng: 18.4241, baseRate: 95, neighbourhoods: ['Camps Bay', 'Gardens', 'Sea Point', 'De Waterkant'] },
  // Names shared by two places (issue 16): the first listed is the likelier one; appended, so the
  // cities above keep their indices (and their listing ids).
  { name: 'Valencia', region: 'Valencian Community', country: 'ES', lat: 39.4699, lng: -0.3763, baseRate: 120, neighbourhoods: ['Ciutat Vella', 'Ruzafa', 'El Carmen', 'Cabanyal'] },
  { name: 'Paris', region: 'Texas', country: 'US', lat: 33.6609, lng: -95.5555, baseRate: 85, neighbourhoods: ['Downtown', 'Lamar', 'Church Street', 'Loop 286'] },
  { name: 'Valencia', region: 'Carabobo', country: 'VE', lat: 10.162, lng: -68.0077, baseRate: 55, neighbourhoods: ['El Viñedo', 'La Viña', 'Prebo', 'San Diego'] },
];

/** The cities listed before the ambiguous names: ids that do not decode are placed among these, as before. */
export const FIRST_CITIES = 30;

/** The radius a sandbox search covers around its place. */
export const SEARCH_RADIUS_KM = 15;

/** What a location was taken to mean, and what else it could have meant. */
export interface PlaceMatch {
  city: number;
  /** Other places of the same name, likeliest first, when the text did not say which. */
  alternatives: number[];
}

/** Resolves "Lisbon", "lisbon, portugal" or "38.72,-9.14" (within ~50 km) to a city index. */
export function resolvePlace(location: string): number | null {
  return matchPlace(location)?.city ?? null;
}

/**
 * Like resolvePlace, saying whether the name was ambiguous. "Paris" is the likeliest Paris (the
 * first listed) with the others as alternatives; "Paris, TX" or "Paris, US" (a region or country
 * code after the comma) picks one, unambiguously. Coordinates are never ambiguous.
 */
export function matchPlace(location: string): PlaceMatch | null {
  const [head = '', qualifier = ''] = location.trim().toLowerCase().split(',').map((s) => s.trim());
  const named = CITIES.flatMap((c, i) => (c.name.toLowerCase() === head ? [i] : []));
  if (named.length === 0) {
    const city = nearestPlace(location);
    return city === null ? null : { city, alternatives: [] };
  }
  const qualified = qualifier === '' ? [] : named.filter((i) => [CITIES[i]!.country, CITIES[i]!.region, US_STATES[CITIES[i]!.region] ?? '', ...(COUNTRY_NAMES[CITIES[i]!.country] ?? [])].some((q) => q.toLowerCase() === qualifier));
  if (qualified.length > 0) return { city: qualified[0]!, alternatives: [] };
  return { city: named[0]!, alternatives: named.slice(1) };
}

const US_STATES: Record<string, string> = { Texas: 'TX', California: 'CA', Florida: 'FL', Illinois: 'IL', 'New York': 'NY' };
const COUNTRY_NAMES: Record<string, string[]> = { FR: ['france'], US: ['usa', 'united states'], ES: ['spain', 'españa'], VE: ['venezuela'] };

function nearestPlace(location: string): number | null {
  const text = location.trim().toLowerCase();
  const coords = /^(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)$/.exec(text);
  if (coords) {
    const [lat, lng] = [Number(coords[1]), Number(coords[2])];
    let best: number | null = null;
    let bestKm = 50;
    CITIES.forEach((c, i) => {
      const km = Math.hypot((c.lat - lat) * 111, (c.lng - lng) * 111 * Math.cos((lat * Math.PI) / 180));
      if (km < bestKm) [best, bestKm] = [i, km];
    });
    return best;
  }
  return null;
}
