import type { FeatureLike } from 'ol/Feature'
import VectorLayer from 'ol/layer/Vector'
import VectorImageLayer from 'ol/layer/VectorImage'
import WebGLVectorLayer from 'ol/layer/WebGLVector'
import Cluster from 'ol/source/Cluster'
import VectorSource from 'ol/source/Vector'
import Feature from 'ol/Feature'
import Point from 'ol/geom/Point'
import { Circle, Fill, Icon, Stroke, Style, Text } from 'ol/style'
import type { FlatStyle } from 'ol/style/flat'
import { MAP_PALETTE } from '../../kit/palette'
import { arrowSprite, headingStep, spriteRatio } from './arrow-sprites'
import { ArrowsLayer, type ArrowData } from './arrows-layer'
import type { DeviceCluster } from './fleet-clusters'
import { STATUS_COLOURS, statusColour } from './fleet-look'

/**
 * The live layer's OpenLayers layers: devices as arrows (heading, status colour) from `CLUSTER_BELOW_ZOOM`
 * on, and clusters (count, colour of their most common status) when zoomed out. The devices are drawn by
 * the fleet's own arrows layer (`arrows-layer.ts`: sprites copied from typed arrays, decision 033), or —
 * `geo-analyst.fleetRenderer` — by OpenLayers' image layer (`image`: drawn once per change, moved as a
 * picture while panning), its canvas vector layer (`canvas`: every arrow on every frame) or its WebGL one
 * (`webgl`); `bench:fleet-map` measures them (decisions 016 and 033).
 */
export type FleetRenderer = 'arrows' | 'canvas' | 'image' | 'webgl'
export const FLEET_RENDERER_KEY = 'geo-analyst.fleetRenderer'
/** Below this zoom the devices are drawn as clusters. */
export const CLUSTER_BELOW_ZOOM = 11
export const CLUSTER_DISTANCE_PX = 40

export function fleetRenderer(): FleetRenderer {
  try {
    const chosen = globalThis.localStorage?.getItem(FLEET_RENDERER_KEY)
    return chosen === 'webgl' || chosen === 'canvas' || chosen === 'image' ? chosen : 'arrows'
  } catch {
    return 'arrows'
  }
}

const arrowStyles = new Map<string, Style>()

/**
 * A device: a narrow triangle pointing along its heading (turned with the view, as the map's north), in its
 * status colour; styles cached by status, heading step and pixel ratio.
 */
export function arrowStyle(status: number, heading: number, viewRotation = 0): Style {
  const step = headingStep(heading, viewRotation)
  const ratio = spriteRatio()
  const key = `${status}:${step}:${ratio}`
  let style = arrowStyles.get(key)
  if (!style) {
    const sprite = arrowSprite(status, step, ratio)
    style = new Style({
      image: new Icon({
        img: sprite,
        size: [sprite.width, sprite.height],
        scale: 1 / ratio,
        anchor: [0.5, 0.5],
      }),
    })
    arrowStyles.set(key, style)
  }
  return style
}

/** The style of a device feature, turned with the view `rotation` gives. */
const deviceStyleOf =
  (rotation: () => number) =>
  (feature: FeatureLike): Style =>
    arrowStyle(feature.get('status') as number, feature.get('heading') as number, rotation())

const clusterStyles = new Map<string, Style>()
/**
 * A cluster: a circle in its commonest status's colour, sized by and labelled with its count; one device
 * alone is its arrow. Two kinds of cluster feature: OpenLayers' `Cluster` source's (`features`: the members)
 * and `clusterFeatures`' (`ids`, `status`, and `heading` when alone).
 */
function clusterStyle(feature: FeatureLike, deviceStyle: (f: FeatureLike) => Style): Style {
  const ids = feature.get('ids') as number[] | undefined
  let top: number
  let size: number
  if (ids) {
    if (ids.length === 1) return deviceStyle(feature)
    top = feature.get('status') as number
    size = ids.length
  } else {
    const members = feature.get('features') as FeatureLike[]
    if (members.length === 1) return deviceStyle(members[0]!)
    const counts = new Map<number, number>()
    for (const m of members)
      counts.set(m.get('status') as number, (counts.get(m.get('status') as number) ?? 0) + 1)
    top = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
    size = members.length
  }
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
  /** The devices' layer; an `ArrowsLayer` is fed by `setDevices`, the others by the source. */
  devices: ArrowsLayer | VectorLayer | VectorImageLayer | WebGLVectorLayer
  clusters: VectorLayer
  /**
   * Where the clusters come from: OpenLayers' `Cluster` over the devices' source, or — with the arrows
   * layer — a plain source the caller fills with `clusterFeatures`.
   */
  cluster: Cluster | VectorSource
}

/** The features of `clusterDevices`' clusters, as the clusters layer draws them. */
export function clusterFeatures(clusters: readonly DeviceCluster[], data: ArrowData): Feature<Point>[] {
  const headingOf = new Map<number, number>()
  for (const c of clusters) if (c.ids.length === 1) headingOf.set(c.ids[0]!, 0)
  if (headingOf.size > 0)
    for (let i = 0; i < data.ids.length; i++)
      if (headingOf.has(data.ids[i]!)) headingOf.set(data.ids[i]!, data.heading[i]!)
  return clusters.map((c) => {
    const feature = new Feature(new Point([c.x, c.y]))
    feature.setProperties(
      {
        ids: c.ids,
        status: c.status,
        ...(c.ids.length === 1 ? { heading: headingOf.get(c.ids[0]!) } : {}),
      },
      true,
    )
    return feature
  })
}

/** `rotation`: the map view's rotation (radians), so arrows turn with the map as its north does. */
export function createDeviceLayers(
  source: VectorSource,
  renderer: FleetRenderer,
  rotation: () => number = () => 0,
): DeviceLayers {
  const deviceStyle = deviceStyleOf(rotation)
  const properties = { name: 'Fleet devices' }
  const devices =
    renderer === 'arrows'
      ? new ArrowsLayer({ properties, minZoom: CLUSTER_BELOW_ZOOM })
      : renderer === 'webgl'
        ? new WebGLVectorLayer({
            source,
            style: webglDeviceStyle(),
            minZoom: CLUSTER_BELOW_ZOOM,
            properties,
          })
        : renderer === 'image'
          ? new VectorImageLayer({ source, style: deviceStyle, minZoom: CLUSTER_BELOW_ZOOM, properties })
          : new VectorLayer({ source, style: deviceStyle, minZoom: CLUSTER_BELOW_ZOOM, properties })
  const cluster =
    renderer === 'arrows' ? new VectorSource() : new Cluster({ source, distance: CLUSTER_DISTANCE_PX })
  const clusters = new VectorLayer({
    source: cluster,
    style: (feature: FeatureLike) => clusterStyle(feature, deviceStyle),
    maxZoom: CLUSTER_BELOW_ZOOM,
    properties: { name: 'Fleet clusters' },
  })
  return { devices, clusters, cluster }
}
