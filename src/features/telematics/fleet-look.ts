import {
  BikeIcon,
  BusIcon,
  CarIcon,
  ConstructionIcon,
  RadioIcon,
  ShovelIcon,
  TractorIcon,
  TruckIcon,
} from '@lucide/vue'
import type { Component } from 'vue'
import { DEVICE_STATUS_VALUES } from '@contract/telematics/fleet'
import { DEVICE_STATUS } from '@contract/telematics/devices'

/**
 * How the fleet looks: a colour per §3 device status (the map's canvas and the list's swatches use the same
 * value, so they live here, beside `kit/palette.ts`'s other canvas colours), and a Lucide icon per §2.6
 * vehicle type.
 */
export const STATUS_COLOURS: Readonly<Record<number, string>> = {
  1: '#059669', // Moving
  8: '#1d4ed8', // On trip
  2: '#d97706', // Idle
  9: '#0891b2', // Free vehicle
  4: '#9333ea', // Towing
  7: '#dc2626', // No GPS
  5: '#6b7280', // No data
  6: '#1f2937', // Power off
}
const UNKNOWN_STATUS_COLOUR = '#9ca3af'

export const statusColour = (status: number): string => STATUS_COLOURS[status] ?? UNKNOWN_STATUS_COLOUR
export const statusName = (status: number): string => DEVICE_STATUS[status] ?? `Status ${status}`

/** The §3 statuses in the order the filter lists them, with their names and colours. */
export const STATUSES = DEVICE_STATUS_VALUES.map((value) => ({
  value,
  name: statusName(value),
  colour: statusColour(value),
}))

const ICONS: Readonly<Record<string, Component>> = {
  car: CarIcon,
  truck: TruckIcon,
  bus: BusIcon,
  bike: BikeIcon,
  tracktor: TractorIcon,
  'backhoe-loader': ShovelIcon,
  excavator: ConstructionIcon,
}

/** The vehicle type's icon; a tracker's radio for a type the spec does not name. */
export const vehicleIcon = (deviceType: string): Component => ICONS[deviceType] ?? RadioIcon

/** The vehicle type as a person reads it (`tracktor` is the spec's spelling). */
export function vehicleTypeName(deviceType: string): string {
  if (deviceType === 'tracktor') return 'Tractor'
  const text = deviceType.replace(/-/g, ' ')
  return text ? text[0]!.toUpperCase() + text.slice(1) : 'Unknown type'
}
