/** The attribution line for an XYZ tile template: OpenStreetMap's required credit, otherwise the tile host. */
export function xyzAttribution(template: string): string {
  let host = ''
  try {
    host = new URL(template.replace(/\{[a-z]\}/g, '0')).hostname
  } catch {
    return 'Tiles: custom XYZ source'
  }
  if (host === 'openstreetmap.org' || host.endsWith('.openstreetmap.org'))
    return '© OpenStreetMap contributors'
  return `Tiles: ${host}`
}
