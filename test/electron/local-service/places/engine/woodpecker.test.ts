import { beforeAll, describe, expect, it } from 'vitest'
import type { Gazetteer } from '../../../../../electron/local-service/places/data/gazetteer'
import { standardize } from '../../../../../electron/local-service/places/engine/woodpecker'
import { shippedGazetteer } from '../support'

let g: Gazetteer
beforeAll(async () => {
  g = await shippedGazetteer()
})
const run = (address: string, bias?: number) => {
  const r = standardize(g, address, { bias })
  if (!r) throw new Error(`nothing recognised in ${address}`)
  return r
}
const admin = (address: string, level: string) =>
  (run(address).addressInformation.adminDetails as Record<string, { originalName: string }>)[level]
    ?.originalName

describe('standardizer: tagged parts of the input', () => {
  it('reads PIN codes in their usual forms', () => {
    expect(run('Koramangala, Bengaluru 560034').referentialInformation.pincodes).toBe('560034')
    expect(run('Connaught Place New Delhi 110 001').referentialInformation.pincodes).toBe('110001')
    expect(run('Gurgaon, Haryana PIN-122001').referentialInformation.pincodes).toBe('122001')
    expect(run('Pin Code: 500034').referentialInformation.pincodes).toBe('500034')
    // A phone number is not a PIN code.
    expect(run('Call 9876543210, Koramangala, Bengaluru').referentialInformation.pincodes).toBe('')
  })

  it('reads house numbers with their prefix and a formatted form', () => {
    expect(run('H.No. 12/3, Koramangala, Bengaluru 560034').referentialInformation.houseNumbers).toEqual({
      prefix: 'H.No.',
      houseNo: '12/3',
      formatted: 'H.No. 12/3',
    })
    expect(run('Flat 302, MG Road, Gurgaon').referentialInformation.houseNumbers.formatted).toBe('Flat 302')
    expect(run('Plot No. 45, Sector 14, Gurugram').referentialInformation.houseNumbers.formatted).toBe(
      'Plot 45',
    )
    expect(run('#12, 5th Cross, Indiranagar, Bengaluru').referentialInformation.houseNumbers.formatted).toBe(
      'No. 12',
    )
    expect(run('B-204, Gokul Dham, Goregaon East, Mumbai').referentialInformation.houseNumbers).toEqual({
      prefix: '',
      houseNo: 'B-204',
      formatted: 'B-204',
    })
    // A numbered cross or floor is not a house number.
    expect(run('5th Cross, Indiranagar, Bengaluru').referentialInformation.houseNumbers.houseNo).toBe('')
  })

  it('reads care-of, floors, roads, landmarks and post offices', () => {
    const r = run(
      'S/O Ram Lal, 2nd Floor, 45 Station Road, Near Hanuman Mandir, PO Kharar, Mohali, Punjab 140301',
    ).referentialInformation
    expect(r.careOfs).toBe('S/O Ram Lal')
    expect(r.floors).toBe('2nd Floor')
    expect(r.roads).toBe('Station Road')
    expect(r.landmarks).toBe('Near Hanuman Mandir')
    expect(r.postOffices).toBe('PO Kharar')
    expect(run('opp. City Mall, Andheri, Mumbai').referentialInformation.landmarks).toBe('opp. City Mall')
    expect(run('5th Cross, 2nd Main, Indiranagar, Bengaluru').referentialInformation.roads).toBe(
      '5th Cross, 2nd Main',
    )
    expect(run('Gali No. 5, Laxmi Nagar, Delhi').referentialInformation.roads).toBe('Gali No. 5')
  })

  it('leaves the PIN code empty when the input has none, and gives an inferred one under match', () => {
    const r = run('Koramangala, Bengaluru')
    expect(r.referentialInformation.pincodes).toBe('')
    expect(r.match?.pincode).toMatch(/^56\d{4}$/)
  })

  it('keeps what nothing consumed in remainingAddress', () => {
    const r = run('Flat 302, Sunshine Apartments, MG Road, Gurgaon, Haryana 122001')
    expect(r.remainingAddress).toBe('Sunshine Apartments')
    expect(r.inputAddress).toBe('Flat 302, Sunshine Apartments, MG Road, Gurgaon, Haryana 122001')
  })

  it('keeps a part no place and no pattern recognised in remainingAddress, even when read as the locality', () => {
    const r = run('Xyzzy Plugh, Jaipur 302001')
    expect(r.remainingAddress).toBe('Xyzzy Plugh')
    expect(r.addressInformation.adminDetails.city.originalName).toBe('Jaipur')
    // Worded like a locality (Nagar), the part is recognised as one.
    const named = run('Xyzzy Nagar, Jaipur 302001')
    expect(named.remainingAddress).toBe('')
    expect(named.addressInformation.adminDetails.locality.originalName).toBe('Xyzzy Nagar')
  })
})

describe('standardizer: administrative parts', () => {
  it('standardizes the common variants of city names', () => {
    expect(admin('Koramangala, Bangalore', 'city')).toBe('Bengaluru')
    expect(admin('Sector 14, Gurgaon', 'city')).toBe('Gurugram')
    expect(admin('Colaba, Bombay', 'city')).toBe('Mumbai')
    expect(admin('Mylapore, Madras', 'city')).toBe('Chennai')
  })

  it('reads Devanagari', () => {
    expect(admin('लखनऊ, उत्तर प्रदेश', 'city')).toBe('Lucknow')
    expect(admin('लखनऊ, उत्तर प्रदेश', 'state')).toBe('Uttar Pradesh')
  })

  it('uses the PIN code to settle the state and the locality', () => {
    const r = run('Civil Lines, 440001')
    expect(r.addressInformation.adminDetails.state?.originalName).toBe('Maharashtra')
    expect(r.addressInformation.adminDetails.city?.originalName).toBe('Nagpur')
    // The same name with another PIN code is another place.
    expect(admin('Civil Lines, 110054', 'city')).toBe('Delhi')
  })

  it('lists the levels found in the order of the input, and marks inferred ones', () => {
    const r = run('Koramangala 4th Block, Bangalore 560034')
    expect(r.addressInformation.adminPattern).toEqual(['locality', 'sublocality', 'city'])
    expect(r.addressInformation.adminDetails.state).toMatchObject({
      originalName: 'Karnataka',
      inferred: true,
    })
    expect(r.addressInformation.adminDetails.locality).toMatchObject({
      originalName: 'Koramangala',
      inputName: 'Koramangala',
    })
  })

  it('reads a town written before its district as the city (Sunam, Sangrur), a suburb as a locality', () => {
    for (const [address, city] of [
      ['Sunam, Sangrur, Punjab', 'Sunam'],
      ['Chhapar, Churu, Rajasthan', 'Chhapar'],
      ['Sohna, Gurgaon, Haryana', 'Sohna'],
      ['64, Janjgir, Janjgir-Champa, Chhattisgarh - 495668', 'Janjgir'],
    ] as const) {
      const r = run(address)
      expect(r.addressInformation.adminDetails.city.originalName, address).toBe(city)
      expect(r.addressInformation.adminDetails.locality.originalName, address).toBe('')
    }
    expect(admin('Sunam, Sangrur, Punjab', 'district')).toBe('Sangrur')
    expect(admin('Borivli, Mumbai, Maharashtra', 'city')).toBe('Mumbai')
  })

  it('bias tips an ambiguous name toward the urban or the rural reading', () => {
    const urban = standardize(g, 'Rampur', { bias: 3 })!
    const rural = standardize(g, 'Rampur', { bias: 0.2 })!
    const kind = (r: typeof urban) => (r.match ? g.kindOf(g.byEloc(r.match.eLoc)) : undefined)
    expect(kind(urban)).toBe('CITY')
    expect(kind(rural)).toBe('VLG')
  })

  it('answers null (HTTP 204) when nothing is recognised', () => {
    expect(standardize(g, 'qwzx plmk')).toBeNull()
  })

  it('is fast enough for the request thread on a long input', () => {
    const long = `${'Flat 12, Some Building, '.repeat(38)}Bengaluru 560001`.slice(0, 1000)
    expect(run(long).referentialInformation.pincodes).toBe('560001')
  })
})
