/**
 * Common variant names of Indian places: former and current official names, anglicised spellings, and
 * the abbreviations of states that addresses use. The gazetteer build adds the variants as alternate names
 * (so autosuggest and the standardizer find either spelling) and uses the first name of each group as
 * the displayed name when the data spells the place otherwise.
 *
 * Each group: the current official name first, then the other names it is known by.
 */
export const PLACE_VARIANTS: ReadonlyArray<readonly string[]> = [
  ['Bengaluru', 'Bangalore', 'Bangaluru', 'Bengalooru'],
  ['Mumbai', 'Bombay'],
  ['Gurugram', 'Gurgaon'],
  ['Kolkata', 'Calcutta'],
  ['Chennai', 'Madras'],
  ['Puducherry', 'Pondicherry', 'Pondy'],
  ['Prayagraj', 'Allahabad'],
  ['Mysuru', 'Mysore'],
  ['Mangaluru', 'Mangalore'],
  ['Belagavi', 'Belgaum'],
  ['Kalaburagi', 'Gulbarga'],
  ['Hubballi', 'Hubli'],
  ['Ballari', 'Bellary'],
  ['Shivamogga', 'Shimoga'],
  ['Tumakuru', 'Tumkur'],
  ['Thiruvananthapuram', 'Trivandrum'],
  ['Kochi', 'Cochin'],
  ['Kozhikode', 'Calicut'],
  ['Thrissur', 'Trichur'],
  ['Kannur', 'Cannanore'],
  ['Alappuzha', 'Alleppey'],
  ['Kollam', 'Quilon'],
  ['Palakkad', 'Palghat'],
  ['Tiruchirappalli', 'Trichy', 'Tiruchi', 'Trichinopoly'],
  ['Thoothukudi', 'Tuticorin'],
  ['Tirunelveli', 'Tinnevelly'],
  ['Thanjavur', 'Tanjore'],
  ['Puri', 'Jagannath Puri'],
  ['Odisha', 'Orissa'],
  ['Varanasi', 'Benares', 'Banaras', 'Kashi'],
  ['Kanpur', 'Cawnpore'],
  ['Vadodara', 'Baroda'],
  ['Shimla', 'Simla'],
  ['Pune', 'Poona'],
  ['Visakhapatnam', 'Vizag', 'Vishakhapatnam', 'Vishakapatnam'],
  ['Vijayawada', 'Bezawada'],
  ['Panaji', 'Panjim'],
  ['Nuh', 'Mewat'],
  ['Uttarakhand', 'Uttaranchal'],
  ['Chhattisgarh', 'Chattisgarh'],
  ['Jammu and Kashmir', 'Jammu & Kashmir'],
  ['Andaman and Nicobar Islands', 'Andaman & Nicobar Islands', 'Andaman and Nicobar'],
  ['Delhi', 'NCT of Delhi', 'National Capital Territory of Delhi'],
  ['Navi Mumbai', 'New Bombay'],
  ['Kadapa', 'Cuddapah'],
  ['Dharashiv', 'Osmanabad'],
  ['Ooty', 'Udhagamandalam', 'Ootacamund'],
]

/** Abbreviations of states and union territories used in addresses (matched by the standardizer only). */
export const STATE_ABBREVIATIONS: Readonly<Record<string, string>> = {
  AP: 'Andhra Pradesh',
  AR: 'Arunachal Pradesh',
  AS: 'Assam',
  BR: 'Bihar',
  CG: 'Chhattisgarh',
  GA: 'Goa',
  GJ: 'Gujarat',
  HR: 'Haryana',
  HP: 'Himachal Pradesh',
  JH: 'Jharkhand',
  JK: 'Jammu and Kashmir',
  'J&K': 'Jammu and Kashmir',
  KA: 'Karnataka',
  KL: 'Kerala',
  MP: 'Madhya Pradesh',
  MH: 'Maharashtra',
  MN: 'Manipur',
  ML: 'Meghalaya',
  MZ: 'Mizoram',
  NL: 'Nagaland',
  OD: 'Odisha',
  PB: 'Punjab',
  RJ: 'Rajasthan',
  SK: 'Sikkim',
  TN: 'Tamil Nadu',
  TS: 'Telangana',
  TG: 'Telangana',
  TR: 'Tripura',
  UP: 'Uttar Pradesh',
  UK: 'Uttarakhand',
  WB: 'West Bengal',
  DL: 'Delhi',
  NCR: 'Delhi',
  PY: 'Puducherry',
  CH: 'Chandigarh',
  LA: 'Ladakh',
}

/** Variant name (normalized key) → the group's names, for build-time lookup. */
export function variantGroups(normalizeKey: (s: string) => string): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>()
  for (const group of PLACE_VARIANTS) for (const name of group) out.set(normalizeKey(name), group)
  return out
}
