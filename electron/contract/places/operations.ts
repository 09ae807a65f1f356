import { paramDocs, type InterfaceTable } from '../operation'
import { autosuggestShapes } from './autosuggest'
import { standardizeShapes } from './standardize'

/** The places area's operations of the interface (spec §4.1, §4.2). */
export const placesInterface = {
  'places.standardize': {
    section: '4.1',
    summary: 'Address standardization: the tagged parts of an address',
    params: paramDocs(standardizeShapes, ['address']),
  },
  'places.autosuggest': {
    section: '4.2',
    summary: 'Place autosuggest (flags tokenizeAddress, bridge, hyperLocal are valueless: pass name=true)',
    params: paramDocs(autosuggestShapes, ['query']),
  },
} as const satisfies InterfaceTable
