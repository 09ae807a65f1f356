/**
 * The patterns of the standardizer's classifiers (spec §4.1): PIN codes, care-of, floors, house numbers,
 * post offices, landmarks, roads, sub-localities and the markers of districts, sub-districts and villages.
 * Each is a global, case-insensitive regular expression over the input; the classifiers in
 * `woodpecker.ts` turn matches into labelled spans.
 */

const SEP = String.raw`\s*[:\-–.#]?\s*`

/** 110001, 110 001, PIN-110001, Pin code: 110001 (not part of a longer number such as a phone). */
export const PIN = new RegExp(
  String.raw`(?:\b(?:pin\s*code|pincode|pin|postal\s*code|post\s*code|zip(?:\s*code)?)\b\.?${SEP})?(?<!\d)(?<!\d[\-\/])([1-9]\d{2})[ \-]?(\d{3})(?![\d\-\/])`,
  'giu',
)
export const PIN_MARKER = /\b(pin|pincode|postal|post\s*code|zip)\b/i

/** C/O, S/O, W/O, D/O, care of … up to the end of the part. */
export const CARE_OF =
  /(?<![\p{L}\d])(c\s*\/\s*o|s\s*\/\s*o|w\s*\/\s*o|d\s*\/\s*o|h\s*\/\s*o|care\s+of|son\s+of|wife\s+of|daughter\s+of)\b\.?\s*[:-]?\s*([^,;\n|]*[\p{L}][^,;\n|]*)/giu

const ORDINAL_WORDS =
  'ground|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|top|upper\\s+ground|lower\\s+ground|upper|lower'
/** 3rd Floor, Ground Floor, Floor 4, 2nd Flr, Basement, GF/FF/SF/TF. */
export const FLOOR = new RegExp(
  String.raw`(?<![\p{L}\d])(?:(?:${ORDINAL_WORDS}|\d{1,2}\s*(?:st|nd|rd|th)?)\s*[-]?\s*(?:floor|flr|fl)\b\.?|(?:floor|flr)\s*(?:no\.?)?\s*[:\-]?\s*\d{1,2}(?:st|nd|rd|th)?\b|basement(?:\s*[-]?\s*\d)?\b|mezzanine(?:\s+floor)?\b|(?:ugf|lgf|gf|ff|sf|tf)\b)`,
  'giu',
)

/** The prefixes of house numbers and how `formatted` writes them. */
export const HOUSE_PREFIXES: ReadonlyArray<[RegExp, string]> = [
  [/^(h\.?\s*no|house\s*(no|number)|hno|h\s*#)/i, 'H.No.'],
  [/^(flat|apartment|apt)/i, 'Flat'],
  [/^plot/i, 'Plot'],
  [/^(door|d\.?\s*no)/i, 'Door No.'],
  [/^shop/i, 'Shop'],
  [/^(office|unit|room|suite)/i, 'Unit'],
  [/^(qtr|quarter)/i, 'Quarter'],
  [/^(bldg|building)/i, 'Building'],
  [/^khasra/i, 'Khasra No.'],
  [/^(survey|sy\.?\s*no|s\.?\s*no)/i, 'Survey No.'],
  [/^(#|no|number)/i, 'No.'],
]

const HOUSE_NUMBER = String.raw`(?:[A-Za-z]{1,3}\s?[\-\/]?\s?)?\d{1,5}[A-Za-z]?(?:\s?[\-\/]\s?[A-Za-z0-9]{1,5}){0,3}|[A-Za-z]{1,2}\s?[\-]\s?\d{1,4}`
/** H.No. 12/3, House No 5, Flat 302, Plot No. 45, # 12, No. 7, Door No 1-2-345/A … */
export const HOUSE_PREFIXED = new RegExp(
  String.raw`(?<![\p{L}\d])(h\.?\s*no\.?|house\s*(?:no\.?|number)|hno\.?|flat\s*(?:no\.?|number)?|apartment\s*(?:no\.?)?|apt\.?\s*(?:no\.?)?|plot\s*(?:no\.?|number)?|door\s*(?:no\.?|number)|d\.?\s*no\.?|shop\s*(?:no\.?|number)?|office\s*(?:no\.?)?|unit\s*(?:no\.?)?|room\s*(?:no\.?)?|suite|qtr\.?\s*(?:no\.?)?|quarter\s*(?:no\.?)?|bldg\.?\s*(?:no\.?)?|building\s*(?:no\.?|number)|khasra\s*(?:no\.?)?|survey\s*(?:no\.?)?|sy\.?\s*no\.?|s\.\s*no\.?|no\.|number|#)\s*[:\-.]?\s*(${HOUSE_NUMBER})(?![\p{L}\d])`,
  'giu',
)
/** A number at the start of the address or of a part: 12, B-204, 221B, 12/3, 1-2-345. */
export const HOUSE_BARE = new RegExp(String.raw`^\s*(${HOUSE_NUMBER})(?![\p{L}\d])`, 'iu')
/** Words after a number that make it something other than a house number. */
export const NOT_A_HOUSE_AFTER =
  /^\s*(?:st|nd|rd|th)?\s*[-]?\s*(floor|flr|fl|cross|main|block|blk|stage|phase|sector|sec|feet|ft|road|rd|street|lane|gali|avenue|pocket|km|kms|b\/s)\b/i
/** Words before `No.` that make it a road, sector or ward number. */
export const NOT_A_HOUSE_BEFORE =
  /\b(gali|lane|road|rd|street|st|sector|sec|block|blk|ward|phase|stage|cross|main|pocket|line|survey|gate|platform|route|pillar|khasra)\s*$/i

/** PO Rampur, P.O. Kharar, Post Office Kalkaji, Post: Rampur. */
export const POST_OFFICE_BEFORE =
  /(?<![\p{L}\d])(p\.\s?o\.?|p\/o|po|post\s*office|post|vpo|v\.p\.o\.?)\s*[:\-.]?\s+([\p{L}][\p{L} .]{1,40}?)(?=\s*(?:,|;|\||$|\n|\b(?:dist|district|distt|tehsil|teh|taluk|taluka|via|ps|p\.s|pin|block|near|opp)\b|\d))/giu
/** Rampur PO, Kalkaji S.O, Gurgaon H.O., Jaipur GPO. Upper-case office codes only when written without dots. */
export const POST_OFFICE_AFTER =
  /(?<![\p{L}\d])([\p{L}][\p{L} .]{1,40}?)\s+(p\.\s?o\.?|P\.?O|post\s*office|[Hh]\.\s?[Oo]\.?|HO|[Ss]\.\s?[Oo]\.?|SO|[Bb]\.\s?[Oo]\.?|BO|g\.?\s?p\.?\s?o\.?|GPO)(?![\p{L}\d/])/gu

/** near X, opp. X, behind X, beside X, next to X, in front of X, landmark: X … up to the end of the part. */
export const LANDMARK =
  /(?<![\p{L}\d])(near(?:by)?|nr\.?|opp\.?|opposite(?:\s+to|\s+of)?|behind|beside|besides|next\s+to|in\s+front\s+of|infront\s+of|adjacent\s+to|adj\.?|close\s+to|facing|landmark\s*[:-]?|l\/m\s*[:-]?|above|below)\s+([^,;\n|]*\p{L}[^,;\n|]*)/giu

/** The words that end a road's name. */
export const ROAD_WORDS =
  'road|rd|marg|marga|margh|street|st|lane|ln|cross|main|highway|hwy|path|avenue|ave|salai|veedhi|veethi|gali|bypass|expressway|expy|boulevard|blvd|drive|ring\\s+road'
/** Name words + road word: MG Road, Mahatma Gandhi Marg, Park Street, Station Rd, 100 Feet Road, Old Airport Road. */
export const ROAD_NAMED = new RegExp(
  String.raw`(?<![\p{L}\d])((?:[\p{L}\d][\p{L}\d.'’\-]*\s+){1,4}?)(${ROAD_WORDS})\b\.?(?:\s+(?:road|rd)\b\.?)?`,
  'giu',
)
/** 5th Cross, 2nd Main Road, Road No. 12, Gali No. 5, Lane 3, Street No. 4, NH-48, SH 17, National Highway 44. */
export const ROAD_NUMBERED = new RegExp(
  String.raw`(?<![\p{L}\d])(?:\d{1,3}\s*(?:st|nd|rd|th)\s+(?:a\s+)?(?:cross|main)(?:\s+(?:road|rd))?\b\.?|(?:road|rd|gali|lane|street|st|cross|main)\s*(?:no\.?|number)?\s*[:\-.]?\s*\d{1,4}[a-z]?\b|(?:nh|sh|national\s+highway|state\s+highway)\s*[-]?\s*\d{1,4}[a-z]?\b|\d{2,3}\s*(?:feet|ft)\.?\s+(?:road|rd)\b\.?)`,
  'giu',
)

/** Sector 14, Sec-21, Phase 2, DLF Phase III, 4th Block, Block C, C Block, 2nd Stage → sub-locality. */
export const SUBLOCALITY = new RegExp(
  String.raw`(?<![\p{L}\d])(?:(?:sector|sec)\s*[-.]?\s*\d{1,3}\s?[a-z]?|(?:phase|ph)\s*[-.]?\s*(?:\d{1,2}|[ivx]{1,4})|(?:\d{1,2}\s*(?:st|nd|rd|th)|[ivx]{1,4})\s+(?:phase|stage|block|sector)|stage\s*[-]?\s*(?:\d|[ivx]{1,4})|(?:block|blk)\s*[-.]?\s*(?:[a-z]{1,2}\d{0,2}|\d{1,3})|[a-z]{1,2}\s*[-]?\s*block)(?![\p{L}\d])`,
  'giu',
)
/** Pocket B, Pocket 5 → sub-sub-locality (and Block/Phase when a sector is the sub-locality). */
export const SUBSUBLOCALITY =
  /(?<![\p{L}\d])pocket\s*[-.]?\s*[a-z0-9]{1,4}(?:\s?-\s?\d{1,3})?(?![\p{L}\d])/giu

/** Dist. Pune, District: Nashik, Distt Sirsa, Zila X. */
export const DISTRICT_MARKER =
  /(?<![\p{L}\d])(dist(?:rict)?|distt|dt|zilla|zila|jila)\b\.?\s*[:\-.]?\s*([\p{L}][\p{L} .]{1,40}?)(?=\s*(?:,|;|\||$|\n|\d|\b(?:state|pin|tehsil|taluk|po|p\.o)\b|\(|-))/giu
/** Tehsil X, Taluk X, Mandal X, Tq. X. */
export const SUBDISTRICT_MARKER =
  /(?<![\p{L}\d])(tehsil|teh|taluka|taluk|tq|tal|ta|mandal|subdivision)\b\.?\s*[:\-.]?\s*([\p{L}][\p{L} .]{1,40}?)(?=\s*(?:,|;|\||$|\n|\d|\b(?:dist|district|distt|pin|po|p\.o)\b|\(|-))/giu
/** Vill. X, Village X, Gram X, VPO X. */
export const VILLAGE_MARKER =
  /(?<![\p{L}\d])(vill(?:age)?|gram|gaon|vpo|v\.p\.o)\b\.?\s*[:\-.]?\s*([\p{L}][\p{L} .]{1,40}?)(?=\s*(?:,|;|\||$|\n|\d|\b(?:post|po|p\.o|dist|district|distt|tehsil|teh|taluk|via|near)\b|\(|-))/giu

/** Words that are never a place on their own (left in the remaining address). */
export const STOP_WORDS = new Set([
  'the',
  'of',
  'and',
  'in',
  'at',
  'to',
  'india',
  'bharat',
  'no',
  'house',
  'flat',
  'floor',
  'road',
  'near',
  'opp',
  'behind',
  'colony',
  'nagar',
  'city',
  'town',
  'village',
  'post',
  'office',
  'district',
  'state',
  'apartment',
  'apartments',
  'society',
  'tower',
  'towers',
  'complex',
  'building',
  'block',
  'sector',
  'phase',
  'main',
  'cross',
  'street',
  'lane',
  'market',
  'bazar',
  'bazaar',
  'chowk',
  'gate',
  'school',
  'hospital',
  'temple',
  'mandir',
  'masjid',
  'church',
  'station',
  'bus',
  'stand',
  'railway',
  'park',
  'garden',
  'new',
  'old',
  'east',
  'west',
  'north',
  'south',
  'extension',
  'layout',
  'enclave',
  'residency',
  'heights',
  'plaza',
  'mall',
])

/** Raichur District, Mudhol Taluk, Vangara Mandal, Saharanpur Tehsil: the marker after the name. */
export const SUFFIX_MARKER =
  /(?<![\p{L}\d])([\p{L}][\p{L}.]*(?:\s+[\p{L}][\p{L}.]*){0,2})\s+(district|dist|distt|taluka|taluk|tehsil|mandal|block|village)\b\.?(?=\s*(?:,|;|\||$|\n|\d))/giu
