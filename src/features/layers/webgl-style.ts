import type { FlatStyle } from 'ol/style/flat'
import type { LayerStyle } from '@contract/index'

type Rgba = [number, number, number, number]

function rgba(hex: string, alpha = 1): Rgba {
  const h = hex.replace('#', '')
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h.slice(0, 6)
  const n = parseInt(full, 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255, alpha]
}

/**
 * The flat style of OpenLayers' WebGL vector layer for points drawn with a layer style — what
 * `olStyleFunction` draws on the canvas, as GPU expressions: single, categorized (`match` on the field) and
 * graduated (`case` on the field's number). Null for a heatmap (its own layer draws it).
 */
export function webglPointStyle(style: LayerStyle): FlatStyle | null {
  const s = style.symbol
  if (s.kind === 'heatmap') return null
  let fill: unknown
  switch (s.kind) {
    case 'single':
      fill = rgba(s.fill)
      break
    case 'categorized':
      fill =
        s.categories.length === 0
          ? rgba(s.other)
          : [
              'match',
              ['get', s.field],
              ...s.categories.flatMap((c) => [c.value, rgba(c.colour)]),
              rgba(s.other),
            ]
      break
    case 'graduated': {
      const value = ['get', s.field]
      const { breaks, colours } = s
      const cases: unknown[] = [
        'case',
        ['<', value, breaks[0]],
        rgba(s.other),
        ['>', value, breaks.at(-1)],
        rgba(s.other),
      ]
      for (let i = colours.length - 1; i >= 1; i--) cases.push(['>=', value, breaks[i]], rgba(colours[i]!))
      cases.push(rgba(colours[0] ?? s.other))
      fill = cases
      break
    }
  }
  return {
    'circle-radius': s.pointSize,
    'circle-fill-color': fill,
    ...(s.strokeWidth > 0
      ? { 'circle-stroke-color': rgba(s.stroke), 'circle-stroke-width': Math.min(s.strokeWidth, 2) }
      : {}),
  } as FlatStyle
}
