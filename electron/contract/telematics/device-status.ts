/** A device's status codes as the spec names them (a module without schemas: the CLI prints them). */
export const DEVICE_STATUS: Readonly<Record<number, string>> = {
  1: 'Moving',
  2: 'Idle',
  4: 'Towing',
  5: 'No data',
  6: 'Power off',
  7: 'No GPS',
  8: 'On trip',
  9: 'Free vehicle',
}
