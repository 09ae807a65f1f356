import { Gazetteer } from '../../../../electron/local-service/places/data/gazetteer'
import { resolveGazetteerFile } from '../../../../electron/local-service/places/data/resolve'
import { prepareAutosuggest } from '../../../../electron/local-service/places/engine/autosuggest'
import { prepareStandardizer } from '../../../../electron/local-service/places/engine/woodpecker'

let shipped: Promise<Gazetteer> | undefined

/** The gazetteer the app ships (resources/data/places/gazetteer.bin), loaded once per test file. */
export function shippedGazetteer(): Promise<Gazetteer> {
  shipped ??= (async () => {
    const file = resolveGazetteerFile()
    if (!file) throw new Error('resources/data/places/gazetteer.bin is missing: run npm run data:places')
    const g = await Gazetteer.loadAsync(file)
    prepareStandardizer(g)
    prepareAutosuggest(g)
    return g
  })()
  return shipped
}
