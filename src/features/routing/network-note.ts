import type { NetworkInfo } from '@contract/routing/operations'

/** How to bring a network of one's own region: the Road networks panel's button, or the CLI. */
export const IMPORT_HINT =
  'Import an extract of your region with Routing → Import OSM extract… or `geo-analyst routing import`.'

/** "OpenStreetMap contributors, ODbL" → "OpenStreetMap": the source, as a person names it. */
function sourceName(attribution: string): string {
  return attribution.split(/ contributors|,/)[0]!.trim() || attribution
}

/** "Sample network: Gothenburg" → "Gothenburg". */
function placeName(name: string): string {
  return name.replace(/^sample( road)? network:\s*/i, '').trim() || name
}

/**
 * The one-line note for a workspace that routes on the bundled sample only (or on nothing): where the
 * sample is and how to bring one's own region. Null once a network of one's own is imported.
 */
export function sampleNetworkNote(networks: readonly NetworkInfo[]): string | null {
  if (networks.some((n) => !n.bundled)) return null
  if (networks.length === 0) return `No road network in this workspace. ${IMPORT_HINT}`
  const samples = networks.map((n) => `${placeName(n.name)} (${sourceName(n.attribution)})`).join(', ')
  return `Sample road network: ${samples}. ${IMPORT_HINT}`
}

/** What a click outside every network is told, where it clicked. */
export function outsideNetworksText(networks: readonly NetworkInfo[]): string {
  const where =
    sampleNetworkNote(networks) ??
    `Road networks: ${networks.map((n) => n.name).join(', ')}. ${IMPORT_HINT.replace('your region', 'this region')}`
  return `Not added: outside every road network. ${where}`
}

/** Why positions outside every network stop a run: numbered as the positions table numbers them. */
export function outsidePositionsText(numbers: readonly number[]): string | null {
  if (numbers.length === 0) return null
  if (numbers.length === 1)
    return `Position ${numbers[0]} is outside every road network: move it onto a network or remove it.`
  const list = `${numbers.slice(0, -1).join(', ')} and ${numbers.at(-1)}`
  return `Positions ${list} are outside every road network: move them onto a network or remove them.`
}
