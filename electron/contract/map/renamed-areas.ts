/**
 * Areas whose id changed after lists and files naming them could have been saved: the old id and the area's
 * name now. The telematics area was `fleet` in the renderer until it took its name from the contract.
 */
const RENAMED_AREAS: Readonly<Record<string, string>> = { fleet: 'telematics' }

/**
 * An area id, or an id an area gave (a layer, a panel: `<area>.<name>`), under the area's name now:
 * `fleet` → `telematics`, `fleet.devices` → `telematics.devices`. Any other id comes back as it is. Used where
 * saved lists and project files are read, so what a person saved under the old name shows the same again.
 */
export function currentAreaId(id: string): string {
  const dot = id.indexOf('.')
  const area = dot < 0 ? id : id.slice(0, dot)
  const renamed = Object.prototype.hasOwnProperty.call(RENAMED_AREAS, area) ? RENAMED_AREAS[area] : undefined
  return renamed === undefined ? id : renamed + id.slice(area.length)
}

/**
 * A saved layer list (top first) with each layer's id and area under the area's name now; where an old and a
 * new id name the same layer, the first listed is kept (the project schema refuses a layer listed twice).
 */
export function withCurrentAreaIds<L extends { id: string; area: string }>(layers: readonly L[]): L[] {
  const seen = new Set<string>()
  return layers.flatMap((layer) => {
    const id = currentAreaId(layer.id)
    if (seen.has(id)) return []
    seen.add(id)
    return [{ ...layer, id, area: currentAreaId(layer.area) }]
  })
}
