/** How a road class reads in an address line (the network carries classes, not street names). */
const ROAD_WORDS: Readonly<Record<string, string>> = {
  motorway: 'Motorway',
  motorway_link: 'Motorway ramp',
  trunk: 'Trunk road',
  trunk_link: 'Trunk road ramp',
  primary: 'Primary road',
  primary_link: 'Primary road ramp',
  secondary: 'Secondary road',
  secondary_link: 'Secondary road ramp',
  tertiary: 'Tertiary road',
  tertiary_link: 'Tertiary road ramp',
  unclassified: 'Minor road',
  residential: 'Residential street',
  living_street: 'Living street',
  service: 'Service road',
  track: 'Track',
  road: 'Road',
}

/**
 * The address line of a device: the kind of road it is on and the place the network covers, e.g.
 * "Primary road, Gothenburg". A parked device off any road has only the place.
 */
export function addressLine(road: string, place: string): string {
  const word = ROAD_WORDS[road]
  return word ? `${word}, ${place}` : place
}

/** The place a network covers, from its name ("Sample network: Gothenburg" → "Gothenburg"). */
export function placeOfNetwork(name: string): string {
  return name.replace(/^.*:\s*/, '').trim() || name
}
