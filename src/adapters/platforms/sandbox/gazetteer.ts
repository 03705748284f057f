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
  /** The airport a traveller to the city uses, where it really is (its distance is noticed). */
  airport: { name: string; lat: number; lng: number };
}

export const CITIES: readonly City[] = [
  { name: 'Lisbon', region: 'Lisbon', country: 'PT', lat: 38.7223, lng: -9.1393, baseRate: 120, neighbourhoods: ['Alfama', 'Baixa', 'Chiado', 'Príncipe Real', 'Belém'], airport: { name: 'Humberto Delgado Airport', lat: 38.7742, lng: -9.1342 } },
  { name: 'Porto', region: 'Porto', country: 'PT', lat: 41.1579, lng: -8.6291, baseRate: 100, neighbourhoods: ['Ribeira', 'Cedofeita', 'Bonfim', 'Foz'], airport: { name: 'Francisco Sá Carneiro Airport', lat: 41.2481, lng: -8.6814 } },
  { name: 'Madrid', region: 'Community of Madrid', country: 'ES', lat: 40.4168, lng: -3.7038, baseRate: 130, neighbourhoods: ['Malasaña', 'Salamanca', 'La Latina', 'Chueca'], airport: { name: 'Adolfo Suárez Madrid–Barajas Airport', lat: 40.4983, lng: -3.5676 } },
  { name: 'Barcelona', region: 'Catalonia', country: 'ES', lat: 41.3874, lng: 2.1686, baseRate: 150, neighbourhoods: ['Gràcia', 'El Born', 'Eixample', 'Barceloneta'], airport: { name: 'Josep Tarradellas Barcelona–El Prat Airport', lat: 41.2974, lng: 2.0833 } },
  { name: 'Paris', region: 'Île-de-France', country: 'FR', lat: 48.8566, lng: 2.3522, baseRate: 210, neighbourhoods: ['Le Marais', 'Montmartre', 'Saint-Germain', 'Bastille'], airport: { name: 'Paris Orly Airport', lat: 48.7262, lng: 2.3652 } },
  { name: 'Lyon', region: 'Auvergne-Rhône-Alpes', country: 'FR', lat: 45.764, lng: 4.8357, baseRate: 110, neighbourhoods: ['Vieux Lyon', 'Croix-Rousse', 'Presqu’île', 'Confluence'], airport: { name: 'Lyon–Saint-Exupéry Airport', lat: 45.7256, lng: 5.0811 } },
  { name: 'Nice', region: "Provence-Alpes-Côte d'Azur", country: 'FR', lat: 43.7102, lng: 7.262, baseRate: 160, neighbourhoods: ['Vieux Nice', 'Le Port', 'Cimiez', 'Promenade'], airport: { name: 'Nice Côte d\'Azur Airport', lat: 43.6584, lng: 7.2159 } },
  { name: 'London', region: 'England', country: 'GB', lat: 51.5072, lng: -0.1276, baseRate: 220, neighbourhoods: ['Soho', 'Shoreditch', 'Kensington', 'Camden', 'Southwark'], airport: { name: 'Heathrow Airport', lat: 51.47, lng: -0.4543 } },
  { name: 'Edinburgh', region: 'Scotland', country: 'GB', lat: 55.9533, lng: -3.1883, baseRate: 150, neighbourhoods: ['Old Town', 'New Town', 'Leith', 'Stockbridge'], airport: { name: 'Edinburgh Airport', lat: 55.95, lng: -3.3725 } },
  { name: 'Dublin', region: 'Leinster', country: 'IE', lat: 53.3498, lng: -6.2603, baseRate: 180, neighbourhoods: ['Temple Bar', 'Ranelagh', 'Portobello', 'Smithfield'], airport: { name: 'Dublin Airport', lat: 53.4264, lng: -6.2499 } },
  { name: 'Amsterdam', region: 'North Holland', country: 'NL', lat: 52.3676, lng: 4.9041, baseRate: 200, neighbourhoods: ['Jordaan', 'De Pijp', 'Oost', 'Centrum'], airport: { name: 'Amsterdam Airport Schiphol', lat: 52.3105, lng: 4.7683 } },
  { name: 'Berlin', region: 'Berlin', country: 'DE', lat: 52.52, lng: 13.405, baseRate: 120, neighbourhoods: ['Mitte', 'Kreuzberg', 'Prenzlauer Berg', 'Neukölln'], airport: { name: 'Berlin Brandenburg Airport', lat: 52.3667, lng: 13.5033 } },
  { name: 'Munich', region: 'Bavaria', country: 'DE', lat: 48.1351, lng: 11.582, baseRate: 160, neighbourhoods: ['Altstadt', 'Schwabing', 'Haidhausen', 'Maxvorstadt'], airport: { name: 'Munich Airport', lat: 48.3538, lng: 11.7861 } },
  { name: 'Vienna', region: 'Vienna', country: 'AT', lat: 48.2082, lng: 16.3738, baseRate: 140, neighbourhoods: ['Innere Stadt', 'Neubau', 'Leopoldstadt', 'Wieden'], airport: { name: 'Vienna International Airport', lat: 48.1103, lng: 16.5697 } },
  { name: 'Prague', region: 'Prague', country: 'CZ', lat: 50.0755, lng: 14.4378, baseRate: 95, neighbourhoods: ['Old Town', 'Malá Strana', 'Vinohrady', 'Žižkov'], airport: { name: 'Václav Havel Airport Prague', lat: 50.1008, lng: 14.26 } },
  { name: 'Rome', region: 'Lazio', country: 'IT', lat: 41.9028, lng: 12.4964, baseRate: 170, neighbourhoods: ['Trastevere', 'Monti', 'Prati', 'Testaccio'], airport: { name: 'Rome Fiumicino Airport', lat: 41.8003, lng: 12.2389 } },
  { name: 'Florence', region: 'Tuscany', country: 'IT', lat: 43.7696, lng: 11.2558, baseRate: 175, neighbourhoods: ['Santa Croce', 'Oltrarno', 'San Niccolò', 'Duomo'], airport: { name: 'Florence Airport, Peretola', lat: 43.81, lng: 11.2051 } },
  { name: 'Athens', region: 'Attica', country: 'GR', lat: 37.9838, lng: 23.7275, baseRate: 110, neighbourhoods: ['Plaka', 'Koukaki', 'Kolonaki', 'Psyrri'], airport: { name: 'Athens International Airport', lat: 37.9364, lng: 23.9445 } },
  { name: 'Valletta', region: 'South Eastern', country: 'MT', lat: 35.8989, lng: 14.5146, baseRate: 130, neighbourhoods: ['Valletta', 'Sliema', 'St. Julian’s', 'Floriana'], airport: { name: 'Malta International Airport', lat: 35.8575, lng: 14.4775 } },
  { name: 'Copenhagen', region: 'Capital Region', country: 'DK', lat: 55.6761, lng: 12.5683, baseRate: 210, neighbourhoods: ['Nørrebro', 'Vesterbro', 'Indre By', 'Christianshavn'], airport: { name: 'Copenhagen Airport', lat: 55.618, lng: 12.6508 } },
  { name: 'New York', region: 'New York', country: 'US', lat: 40.7128, lng: -74.006, baseRate: 280, neighbourhoods: ['SoHo', 'Williamsburg', 'Upper West Side', 'Harlem', 'Chelsea'], airport: { name: 'John F. Kennedy International Airport', lat: 40.6413, lng: -73.7781 } },
  { name: 'Chicago', region: 'Illinois', country: 'US', lat: 41.8781, lng: -87.6298, baseRate: 190, neighbourhoods: ['Wicker Park', 'Lincoln Park', 'River North', 'Logan Square'], airport: { name: 'O\'Hare International Airport', lat: 41.9742, lng: -87.9073 } },
  { name: 'San Francisco', region: 'California', country: 'US', lat: 37.7749, lng: -122.4194, baseRate: 260, neighbourhoods: ['Mission', 'Nob Hill', 'Haight-Ashbury', 'SoMa'], airport: { name: 'San Francisco International Airport', lat: 37.6213, lng: -122.379 } },
  { name: 'Miami', region: 'Florida', country: 'US', lat: 25.7617, lng: -80.1918, baseRate: 230, neighbourhoods: ['South Beach', 'Brickell', 'Wynwood', 'Coconut Grove'], airport: { name: 'Miami International Airport', lat: 25.7959, lng: -80.287 } },
  { name: 'Mexico City', region: 'CDMX', country: 'MX', lat: 19.4326, lng: -99.1332, baseRate: 90, neighbourhoods: ['Roma Norte', 'Condesa', 'Coyoacán', 'Polanco'], airport: { name: 'Mexico City International Airport', lat: 19.4361, lng: -99.0719 } },
  { name: 'Tokyo', region: 'Tokyo', country: 'JP', lat: 35.6762, lng: 139.6503, baseRate: 170, neighbourhoods: ['Shinjuku', 'Shibuya', 'Asakusa', 'Ginza'], airport: { name: 'Haneda Airport', lat: 35.5494, lng: 139.7798 } },
  { name: 'Bangkok', region: 'Bangkok', country: 'TH', lat: 13.7563, lng: 100.5018, baseRate: 70, neighbourhoods: ['Sukhumvit', 'Silom', 'Riverside', 'Ari'], airport: { name: 'Suvarnabhumi Airport', lat: 13.69, lng: 100.7501 } },
  { name: 'Bali', region: 'Bali', country: 'ID', lat: -8.4095, lng: 115.1889, baseRate: 85, neighbourhoods: ['Ubud', 'Seminyak', 'Canggu', 'Uluwatu'], airport: { name: 'Ngurah Rai International Airport', lat: -8.7482, lng: 115.1672 } },
  { name: 'Sydney', region: 'New South Wales', country: 'AU', lat: -33.8688, lng: 151.2093, baseRate: 210, neighbourhoods: ['Surry Hills', 'Bondi', 'The Rocks', 'Newtown'], airport: { name: 'Sydney Kingsford Smith Airport', lat: -33.9399, lng: 151.1753 } },
  { name: 'Cape Town', region: 'Western Cape', country: 'ZA', lat: -33.9249, lng: 18.4241, baseRate: 95, neighbourhoods: ['Camps Bay', 'Gardens', 'Sea Point', 'De Waterkant'], airport: { name: 'Cape Town International Airport', lat: -33.9715, lng: 18.6021 } },
  // Names shared by two places (issue 16): the first listed is the likelier one; appended, so the
  // cities above keep their indices (and their listing ids).
  { name: 'Valencia', region: 'Valencian Community', country: 'ES', lat: 39.4699, lng: -0.3763, baseRate: 120, neighbourhoods: ['Ciutat Vella', 'Ruzafa', 'El Carmen', 'Cabanyal'], airport: { name: 'Valencia Airport', lat: 39.4893, lng: -0.4816 } },
  { name: 'Paris', region: 'Texas', country: 'US', lat: 33.6609, lng: -95.5555, baseRate: 85, neighbourhoods: ['Downtown', 'Lamar', 'Church Street', 'Loop 286'], airport: { name: 'Cox Field', lat: 33.6366, lng: -95.4508 } },
  { name: 'Valencia', region: 'Carabobo', country: 'VE', lat: 10.162, lng: -68.0077, baseRate: 55, neighbourhoods: ['El Viñedo', 'La Viña', 'Prebo', 'San Diego'], airport: { name: 'Arturo Michelena International Airport', lat: 10.1497, lng: -67.9284 } },
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
