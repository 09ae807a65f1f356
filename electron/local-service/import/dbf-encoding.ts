import { ImportError } from './crs'

/**
 * The text encoding of a Shapefile's attributes, as GDAL finds it: the `.cpg` file when there is one, else
 * the `.dbf` header's language driver id (byte 29), else UTF-8. GDAL and QGIS write Shapefiles with
 * language driver 87 (ISO-8859-1) and no `.cpg` unless told otherwise; read as UTF-8, "Zürich" came in as
 * "Z\ufffdrich". Code pages are given as the labels TextDecoder knows.
 */

/** Windows code page numbers (as `.cpg` files and language drivers name them) to TextDecoder labels. */
const CODE_PAGES: Record<number, string> = {
  65001: 'utf-8',
  874: 'windows-874',
  932: 'shift_jis',
  936: 'gbk',
  949: 'euc-kr',
  950: 'big5',
  866: 'ibm866',
  20866: 'koi8-r',
  ...Object.fromEntries(
    Array.from({ length: 9 }, (_, i) => [
      [1250 + i, `windows-${1250 + i}`],
      [28591 + i, `iso-8859-${i + 1}`],
    ]).flat(),
  ),
}

/**
 * dBASE language driver ids to code pages, for those TextDecoder can decode (GDAL's table in
 * `OGRShapeLayer::ConvertCodePage`). DOS code pages (437, 850, 852, …) are not among them: such a file is
 * read as UTF-8, as before, which is right for its ASCII text.
 */
const LANGUAGE_DRIVERS: Record<number, number | string> = {
  3: 1252,
  19: 932,
  38: 866,
  77: 936,
  78: 949,
  79: 950,
  80: 874,
  87: 'iso-8859-1',
  88: 1252,
  89: 1252,
  101: 866,
  120: 950,
  121: 949,
  122: 936,
  123: 932,
  124: 874,
  200: 1250,
  201: 1251,
  202: 1254,
  203: 1253,
  204: 1257,
}

function label(codePage: number | string | undefined): string | undefined {
  return typeof codePage === 'number' ? CODE_PAGES[codePage] : codePage
}

function known(encoding: string): boolean {
  try {
    new TextDecoder(encoding)
    return true
  } catch {
    return false
  }
}

/** The encoding to decode the `.dbf` with, given the `.cpg` text (if any) and the `.dbf` bytes (if any). */
export function dbfEncoding(cpg: string | undefined, dbf: Uint8Array | undefined): string {
  if (cpg !== undefined && cpg.trim() !== '') {
    const text = cpg.trim()
    // "1252", "ANSI 1252", "CP1252", "windows-1252", "65001", "LDID/87".
    const page = /^(?:ansi[ _-]?|cp[ _-]?|windows-|ibm)?(\d+)$/i.exec(text)
    const ldid = /^ldid\/(\d+)$/i.exec(text)
    const encoding =
      (page && label(Number(page[1]))) ?? (ldid && label(LANGUAGE_DRIVERS[Number(ldid[1])])) ?? text
    if (!known(encoding)) {
      throw new ImportError(`the .cpg names an encoding this reader does not know: "${text.slice(0, 40)}"`)
    }
    return encoding
  }
  const driver = dbf && dbf.length > 29 ? dbf[29]! : 0
  return label(LANGUAGE_DRIVERS[driver]) ?? 'utf-8'
}
