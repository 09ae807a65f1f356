/** How the device drawer and the alerts feed write values. Times are unix seconds. */

export const formatTime = (seconds: number | null | undefined): string =>
  seconds ? new Date(seconds * 1000).toLocaleString('en-GB', { hour12: false }) : '–'

export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–'
  const s = Math.max(0, Math.round(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return h > 0 ? `${h} h ${String(m).padStart(2, '0')} min` : m > 0 ? `${m} min ${s % 60} s` : `${s} s`
}

export const formatNumber = (value: unknown, digits = 0): string =>
  typeof value === 'number' && Number.isFinite(value)
    ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : value === undefined || value === null || value === ''
      ? '–'
      : String(value)

/** The §2.6 canInfo fields as a person reads them, with units. */
export const CAN_FIELDS: ReadonlyArray<{ key: string; label: string; unit?: string; digits?: number }> = [
  { key: 'engineRPM', label: 'Engine', unit: 'rpm' },
  { key: 'gearState', label: 'Gear' },
  { key: 'accelPedal', label: 'Accelerator pedal', unit: '%' },
  { key: 'breakPedal', label: 'Brake pedal' },
  { key: 'parkBrake', label: 'Parking brake' },
  { key: 'fuelLevel', label: 'Fuel level', unit: '%', digits: 1 },
  { key: 'fuelConsAVG', label: 'Fuel consumption', unit: 'l/100 km', digits: 1 },
  { key: 'coolantTemp', label: 'Coolant', unit: '°C', digits: 1 },
  { key: 'intakeAirTemp', label: 'Intake air', unit: '°C', digits: 1 },
  { key: 'intakeabsolutePress', label: 'Intake pressure', unit: 'kPa' },
  { key: 'calcEngineVal', label: 'Engine load', unit: '%' },
  { key: 'greenDriveType', label: 'Drive event' },
  { key: 'driverDoor', label: 'Driver door' },
  { key: 'headLights', label: 'Headlights' },
  { key: 'blinker', label: 'Blinker' },
  { key: 'ac', label: 'Air conditioning' },
]

export const HARDWARE_FIELDS: ReadonlyArray<{ key: string; label: string; time?: boolean }> = [
  { key: 'id', label: 'Hardware id' },
  { key: 'name', label: 'Name' },
  { key: 'deviceTypeName', label: 'Device type' },
  { key: 'trackingCode', label: 'Tracking code' },
  { key: 'deviceCode', label: 'Device code' },
  { key: 'active', label: 'Active' },
  { key: 'mappedDeviceIds', label: 'Mapped devices' },
  { key: 'odometerType', label: 'Odometer type' },
  { key: 'installDate', label: 'Installed', time: true },
  { key: 'expiryDate', label: 'Expires', time: true },
]

export function hardwareValue(record: Record<string, unknown>, key: string, time?: boolean): string {
  const v = record[key]
  if (time) return typeof v === 'number' ? formatTime(v) : '–'
  if (Array.isArray(v)) return v.join(', ') || '–'
  if (typeof v === 'boolean') return v ? 'yes' : 'no'
  // Ids and codes are names, not quantities.
  return v === undefined || v === null || v === '' ? '–' : String(v)
}
