import type { InterfaceTable } from '../operation'

/** The vision area's operation of the interface (spec §4.10): an image upload. */
export const visionInterface = {
  'vision.blurPlates': {
    section: '4.10',
    summary: 'Blur the license plates of a panorama (.jpg, .jpeg or .png); --out FILE for the image',
    params: [],
    file: true,
  },
} as const satisfies InterfaceTable
