import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generatedAddresses, loadLabelledAddresses } from '../../../support/places-fixtures'
import { runService, TOKEN, type Running } from '../helpers'
import { shippedGazetteer } from './support'

/** The §2.1 table of the spec: every field, always present (tagged parts not found are empty strings). */
const ADMIN_LEVELS = ['state', 'locality', 'city', 'sublocality', 'subsublocality']
const SPEC_FIELDS: Array<[string, 'string' | 'object' | 'array']> = [
  ['inputAddress', 'string'],
  ['remainingAddress', 'string'],
  ['referentialInformation', 'object'],
  ...['pincodes', 'floors', 'roads', 'postOffices', 'careOfs', 'landmarks'].map(
    (f) => [`referentialInformation.${f}`, 'string'] as [string, 'string'],
  ),
  ['referentialInformation.houseNumbers', 'object'],
  ...['prefix', 'houseNo', 'formatted'].map(
    (f) => [`referentialInformation.houseNumbers.${f}`, 'string'] as [string, 'string'],
  ),
  ['addressInformation.adminDetails', 'object'],
  ...ADMIN_LEVELS.flatMap((level) => [
    [`addressInformation.adminDetails.${level}`, 'object'] as [string, 'object'],
    [`addressInformation.adminDetails.${level}.originalName`, 'string'] as [string, 'string'],
  ]),
  ['addressInformation.adminPattern', 'array'],
]

function typeAt(body: unknown, dotted: string): string {
  let v: unknown = body
  for (const part of dotted.split('.')) {
    if (v === null || typeof v !== 'object' || !(part in v)) return 'absent'
    v = (v as Record<string, unknown>)[part]
  }
  return Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v
}

let svc: Running
beforeAll(async () => {
  svc = await runService({})
})
afterAll(async () => {
  await svc?.stop()
})

async function woodpecker(address: string) {
  const r = await fetch(
    `${svc.service.urls.atlas_url}/api/places/woodpecker?${new URLSearchParams({ address })}`,
    { headers: { authorization: `Bearer ${TOKEN}` } },
  )
  const text = await r.text()
  return { status: r.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null }
}

describe('GET /atlas/api/places/woodpecker: the fields of §2.1', () => {
  it('answers every field of the §2.1 table, with its type, in every 200 of a sweep of varied addresses', async () => {
    const g = await shippedGazetteer()
    const addresses = [
      'H.No. 123, Sector 15, Gurgaon, Haryana 122001',
      'Xyzzy Plugh, Jaipur 302001',
      'Jaipur',
      '560034',
      'Flat 302, Sunshine Apartments, MG Road, Gurgaon, Haryana 122001',
      'Vill. Daun Majra, Tehsil Kharar, Distt. Mohali, Punjab 140301',
      ...loadLabelledAddresses().map((a) => a.address),
      ...generatedAddresses(g, 150, 11).map((a) => a.address),
    ]
    let answered = 0
    const missing: string[] = []
    for (const address of addresses) {
      const r = await woodpecker(address)
      if (r.status === 204) continue
      expect(r.status, address).toBe(200)
      answered++
      for (const [field, type] of SPEC_FIELDS) {
        const got = typeAt(r.json, field)
        if (got !== type) missing.push(`${field}: ${got} instead of ${type} — ${address}`)
      }
      const pattern = (r.json!.addressInformation as { adminPattern: unknown[] }).adminPattern
      if (!pattern.every((p) => typeof p === 'string' && ADMIN_LEVELS.includes(p)))
        missing.push(`adminPattern ${JSON.stringify(pattern)} — ${address}`)
    }
    expect(answered).toBeGreaterThan(500)
    expect(missing.slice(0, 10)).toEqual([])
  }, 120_000)

  it('gives a level not found an empty name', async () => {
    const r = await woodpecker('H.No. 123, Sector 15, Gurgaon, Haryana 122001')
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({
      addressInformation: {
        adminDetails: {
          sublocality: { originalName: 'Sector 15' },
          city: { originalName: 'Gurugram' },
          state: { originalName: 'Haryana' },
          locality: { originalName: '' },
          subsublocality: { originalName: '' },
        },
        adminPattern: ['sublocality', 'city', 'state'],
      },
    })
  })

  it('keeps in remainingAddress the part nothing recognised', async () => {
    const r = await woodpecker('Xyzzy Plugh, Jaipur 302001')
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({
      remainingAddress: 'Xyzzy Plugh',
      referentialInformation: { pincodes: '302001' },
      addressInformation: { adminDetails: { city: { originalName: 'Jaipur' } } },
    })
  })
})
