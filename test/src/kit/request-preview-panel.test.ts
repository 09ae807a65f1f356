import { cleanup, render, screen } from '@testing-library/vue'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { RequestPreview } from '@contract/index'
import RequestPreviewPanel from '../../../src/kit/RequestPreviewPanel.vue'

afterEach(cleanup)

const preview = (body?: string): RequestPreview =>
  ({
    method: 'POST',
    url: 'http://127.0.0.1:1/telematics/alarm',
    query: [['region', 'IND']],
    ...(body === undefined ? {} : { body }),
    curl: "curl -X POST 'http://127.0.0.1:1/telematics/alarm'",
    cli: 'geo-analyst call telematics.alarm',
  }) as RequestPreview

describe('RequestPreviewPanel', () => {
  it('shows method, URL, query and a JSON body indented; the CLI form when not copyable', () => {
    render(RequestPreviewPanel, { props: { preview: preview('{"alarmType":22}') } })
    expect(screen.getByText('POST http://127.0.0.1:1/telematics/alarm')).toBeTruthy()
    expect(screen.getByText('region').nextElementSibling?.textContent).toBe('IND')
    expect(screen.getByLabelText('Request body').textContent).toBe('{\n  "alarmType": 22\n}')
    expect(screen.getByText('geo-analyst call telematics.alarm')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Copy as curl' })).toBeNull()
  })

  it('cuts a long body where it is shown, saying how long it is', () => {
    render(RequestPreviewPanel, { props: { preview: preview('x'.repeat(5000)) } })
    const shown = screen.getByLabelText('Request body').textContent ?? ''
    expect(shown).toMatch(/… \(5,000 characters in all\)$/)
    expect(shown.startsWith('x'.repeat(4000) + '…')).toBe(true)
  })

  it('copies the curl form and says so', async () => {
    const user = userEvent.setup() // its clipboard stands in for the system's
    render(RequestPreviewPanel, { props: { preview: preview(), copyable: true } })
    await user.click(screen.getByRole('button', { name: 'Copy as curl' }))
    expect(await navigator.clipboard.readText()).toBe("curl -X POST 'http://127.0.0.1:1/telematics/alarm'")
    expect((await screen.findByRole('status')).textContent).toBe('Copied the curl command.')
  })

  it('says why there is no preview yet', () => {
    render(RequestPreviewPanel, {
      props: { preview: null, error: { message: 'deviceId is required' } as never },
    })
    expect(screen.getByText('No preview yet: deviceId is required')).toBeTruthy()
  })
})
