import type { Dataset } from '../../contract'
import type { Layer } from '../../contract/gis/layers'

/**
 * A §4.6 layer as the datasets panel shows it; `fields` only when every entry has a name and a type;
 * `tiles` when the built-in service advertised vector tiles (its workspace is a database); `owner` when a
 * team server names who saved it.
 */
export function datasetFromLayer(layer: Layer, local: boolean, tiles = false): Dataset {
  const fields = Array.isArray(layer.fields)
    ? layer.fields.flatMap((f) => {
        const field = f as { name?: unknown; type?: unknown }
        return typeof field?.name === 'string'
          ? [{ name: field.name, type: typeof field.type === 'string' ? field.type : 'string' }]
          : []
      })
    : undefined
  const extent = layer.extent
  return {
    layername: layer.layername,
    ...(layer.geometrytype ? { geometrytype: layer.geometrytype } : {}),
    ...(layer.source ? { source: layer.source } : {}),
    ...(fields ? { fields } : {}),
    ...(typeof layer.featureCount === 'number' ? { featureCount: layer.featureCount } : {}),
    ...(extent && extent.length === 4
      ? { extent: [extent[0], extent[1], extent[2], extent[3]] as [number, number, number, number] }
      : {}),
    local,
    ...(local && tiles ? { tiles: true } : {}),
    // A team server's extension field: who saved it (shown as given, cut to a user name's length).
    ...(typeof layer.owner === 'string' && layer.owner.trim()
      ? { owner: layer.owner.trim().slice(0, 64) }
      : {}),
  }
}
