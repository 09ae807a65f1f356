import { POD_VALUES, type Pod } from '@contract/places/autosuggest'

/** The place types of `pod`, as a person reads them. */
export const POD_LABELS: Readonly<Record<Pod, string>> = {
  STATE: 'State',
  DIST: 'District',
  SDIST: 'Sub-district',
  CITY: 'City or town',
  LC: 'Locality',
  SLC: 'Sub-locality',
  SSLC: 'Sub-sub-locality',
  VLG: 'Village',
}
export const POD_OPTIONS = POD_VALUES.map((value) => ({ value, label: POD_LABELS[value] }))

/** How far to zoom in on a place of a kind. */
export function zoomFor(type: string): number {
  switch (type.toUpperCase()) {
    case 'STATE':
      return 6
    case 'DISTRICT':
      return 9
    case 'CITY':
      return 11
    default:
      return 14
  }
}
