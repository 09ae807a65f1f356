import { paramDocs, type InterfaceTable } from '../operation'
import { matrixShapes, predictiveShapes } from './matrix'

/** The routing area's operations of the interface (spec §4.3, §4.4); the licence key is a path segment. */
export const routingInterface = {
  'routing.matrix': {
    section: '4.3',
    summary: 'Distance and duration matrix between positions (lon,lat pairs or eLocs, ;-separated)',
    params: paramDocs(matrixShapes, ['resources', 'profile', 'geopositions']),
  },
  'routing.predictive': {
    section: '4.4',
    summary: 'Predictive ETA from the first to the last coordinate, through the ones between',
    params: paramDocs(predictiveShapes, ['coordinates']),
  },
} as const satisfies InterfaceTable
