import type { FeatureLike } from 'ol/Feature'
import VectorLayer from 'ol/layer/Vector'
import VectorImageLayer from 'ol/layer/VectorImage'
import WebGLVectorLayer from 'ol/layer/WebGLVector'
import Cluster from 'ol/source/Cluster'
import type VectorSource from 'ol/source/Vector'
import { Circle, Fill, RegularShape, Stroke, Style, Text } from 'ol/style'
import type { FlatStyle } from 'ol/style/flat'
import { MAP_PALETTE } from '../../kit/palette'
import { STATUS_COLOURS, statusColour } from './fleet-look'

/**
 * The live layer's OpenLayers layers: devices as arrows (heading, status colour) from `CLUSTER_BELOW_ZOOM`
 * on, and clusters (count, colour of their most common status) when zoomed out. The devices are drawn by an
 * image layer (drawn once per change, moved as a picture while panning), or — `geo-analyst.fleetRenderer` —
 * by a canvas vector layer (`canvas`: every arrow on every frame) or a WebGL one (`webgl`);
 * `bench:fleet-map` measures them (ADR 016).
 */
export type FleetRenderer = 'canvas' | 'image' | 'webgl'
export const FLEET_RENDERER_KEY = 'geo-analyst.fleetRenderer'
/** Below this zoom the devices are drawn as clusters. */
export const CLUSTER_BELOW_ZOOM = 11
export const CLUSTER_DISTANCE_PX = 40

export function fleetRenderer(): FleetRenderer {
  try {
    const chosen = globalThis.localStorage?.getItem(FLEET_RENDERER_KEY)
    return chosen === 'webgl' || chosen === 'canvas' ? chosen : 'image'
  } catch {
    return 'image'
  }
}

const HEADING_STEP = 10
const arrowStyles = new Map<string, Style>()

/** A device: a triangle pointing along its heading, in its status colour (styles cached by both). */
export function arrowStyle(status: number, heading: number): Style {
  const step = Math.round((((heading % 360) + 360) % 360) / HEADING_STEP) % (360 / HEADING_STEP)
  const key = `${status}:${step}`
  let style = arrowStyles.get(key)
  if (!style) {
    style = new Style({
      image: new RegularShape({
        points: 3,
        radius: 9,
        // A narrow triangle: its tip points along the heading.
        scale: [0.7, 1],
        rotation: (step * HEADING_STEP * Math.PI) / 180,
        rotateWithView: true,
        fill: new Fill({ color: statusColour(status) }),
        stroke: new Stroke({ color: MAP_PALETTE.pointOutline, width: 1.5 }),
      }),
    })
    arrowStyles.set(key, style)
  }
  return style
}

const deviceStyle = (feature: FeatureLike) =>
  arrowStyle(feature.get('status') as number, feature.get('heading') as number)

const clusterStyles = new Map<string, Style>()
function clusterStyle(feature: FeatureLike): Style {
  const members = feature.get('features') as FeatureLike[]
  if (members.length === 1) return deviceStyle(members[0]!)
  const counts = new Map<number, number>()
  for (const m of members)
    counts.set(m.get('status') as number, (counts.get(m.get('status') as number) ?? 0) + 1)
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
  const size = members.length
  const key = `${top}:${size}`
  let style = clusterStyles.get(key)
  if (!style) {
    style = new Style({
      image: new Circle({
        radius: Math.min(24, 10 + Math.log2(size) * 2),
        fill: new Fill({ color: statusColour(top) }),
        stroke: new Stroke({ color: MAP_PALETTE.pointOutline, width: 2 }),
      }),
      text: new Text({
        text: String(size),
        font: '600 11px system-ui, sans-serif',
        fill: new Fill({ color: MAP_PALETTE.pointOutline }),
      }),
    })
    if (clusterStyles.size > 2000) clusterStyles.clear()
    clusterStyles.set(key, style)
  }
  return style
}

/** The WebGL layer's look: the same arrows, colours and rotation as the canvas style. */
export function webglDeviceStyle(): FlatStyle {
  const match: unknown[] = ['match', ['get', 'status']]
  for (const [status, colour] of Object.entries(STATUS_COLOURS)) match.push(Number(status), colour)
  match.push(statusColour(-1))
  return {
    'shape-points': 3,
    'shape-radius': 9,
    'shape-scale': [0.7, 1],
    'shape-fill-color': match as FlatStyle['shape-fill-color'],
    'shape-stroke-color': MAP_PALETTE.pointOutline,
    'shape-stroke-width': 1.5,
    'shape-rotation': ['*', ['get', 'heading'], Math.PI / 180],
  }
}

export interface DeviceLayers {
  devices: VectorLayer | VectorImageLayer | WebGLVectorLayer
  clusters: VectorLayer
  cluster: Cluster
}

export function createDeviceLayers(source: VectorSource, renderer: FleetRenderer): DeviceLayers {
  const properties = { name: 'Fleet devices' }
  const devices =
    renderer === 'webgl'
      ? new WebGLVectorLayer({
          source,
          style: webglDeviceStyle(),
          minZoom: CLUSTER_BELOW_ZOOM,
          properties,
        })
      : renderer === 'image'
        ? new VectorImageLayer({ source, style: deviceStyle, minZoom: CLUSTER_BELOW_ZOOM, properties })
        : new VectorLayer({ source, style: deviceStyle, minZoom: CLUSTER_BELOW_ZOOM, properties })
  const cluster = new Cluster({ source, distance: CLUSTER_DISTANCE_PX })
  const clusters = new VectorLayer({
    source: cluster,
    style: clusterStyle,
    maxZoom: CLUSTER_BELOW_ZOOM,
    properties: { name: 'Fleet clusters' },
  })
  return { devices, clusters, cluster }
}
