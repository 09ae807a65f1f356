import { describe, expect, it } from 'vitest'
import { readPlate } from '../../../../../electron/local-service/vision/engine/plate-grammar'

describe('readPlate: Indian registration formats', () => {
  it.each([
    ['MH 12 AB 1234', 'MH12AB1234', 'state'],
    ['DL 3C AB 1234', 'DL3CAB1234', 'state'],
    ['KA 01 M 123', 'KA01M123', 'state'],
    ['TN07BX4521', 'TN07BX4521', 'state'],
    ['22 BH 1234 AA', '22BH1234AA', 'bharat'],
    ['24 BH 0042 C', '24BH0042C', 'bharat'],
  ])('reads %s exactly', (text, plate, format) => {
    expect(readPlate(text)).toEqual({ plate, format, cost: 0 })
  })

  it('reads a two-line plate from its lines joined top to bottom', () => {
    expect(readPlate('MH 12' + 'AB 1234')?.plate).toBe('MH12AB1234')
  })

  it('repairs the usual OCR confusions at a small cost, by position', () => {
    // I for 1 and Z for 2 where digits belong; 0 for O and 8 for B where letters belong
    expect(readPlate('MHI2AB1Z34')).toEqual({ plate: 'MH12AB1234', format: 'state', cost: 0.6 })
    expect(readPlate('MH12A81234')?.plate).toBe('MH12AB1234')
    expect(readPlate('0D 05 AB 1234')?.plate).toBe('OD05AB1234')
  })

  it('drops the IND strip the detector may have read with the registration', () => {
    expect(readPlate('IND MH 12 AB 1234')?.plate).toBe('MH12AB1234')
  })

  it('tolerates one missing or extra character, at the cost of an edit', () => {
    expect(readPlate('MH12AB123')?.cost).toBe(0)
    expect(readPlate('MH12AB1234K')).toEqual({ plate: 'MH12AB1234', format: 'state', cost: 1 })
  })

  it.each([
    'SHARMA SWEETS',
    'OPEN 24 HOURS',
    'SALE 50% OFF',
    'ROOM 204',
    'CALL 98201 45678',
    'GST 27AAACR5055K1Z5',
    'HOTEL',
    'MH12',
    '',
  ])('does not take shop-sign text for a plate: %s', (text) => {
    expect(readPlate(text)).toBeUndefined()
  })

  it('wants a real state code', () => {
    expect(readPlate('XY 12 AB 1234')).toBeUndefined()
    expect(readPlate('XY 12 AB 1234', 2)?.cost).toBe(1.5)
  })
})
