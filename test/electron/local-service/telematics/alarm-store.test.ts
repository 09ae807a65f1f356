import { readFile, rm } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FileAlarmStore, type NewAlarm } from '../../../../electron/local-service/telematics/alarm-store'
import { TelematicsStore } from '../../../../electron/local-service/telematics/store'
import { tempDir } from '../helpers'

const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

const alarm = (type: number, key?: string): NewAlarm => ({
  alarmType: 21,
  deviceId: [1],
  type,
  severity: 0,
  createdAt: 1_700_000_000,
  created: '2023-11-14T22:13:20.000Z',
  ...(key ? { idempotencyKey: key } : {}),
  identity: JSON.stringify({ alarmType: 21, deviceId: [1], type }),
})

describe('alarm configurations in a folder workspace (FileAlarmStore)', () => {
  it('keeps them in <workspace>/telematics/alarms.json, numbered 1, 2, …, read back after a restart', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const store = new FileAlarmStore(new TelematicsStore(dir))
    const first = await store.insert(alarm(1))
    const second = await store.insert(alarm(2, 'k'))
    expect([first.alarm.id, second.alarm.id]).toEqual([1, 2])
    expect([first.created, second.created]).toEqual([true, true])
    const file = JSON.parse(await readFile(path.join(dir, 'telematics', 'alarms.json'), 'utf8')) as {
      alarms: { id: number }[]
    }
    expect(file.alarms.map((a) => a.id)).toEqual([1, 2])
    const restarted = new FileAlarmStore(new TelematicsStore(dir))
    expect(await restarted.list()).toEqual([first.alarm, second.alarm])
    expect(await restarted.byKey('k')).toEqual(second.alarm)
    expect((await restarted.insert(alarm(3))).alarm.id).toBe(3)
  })

  it('of creations with one Idempotency-Key at once, stores one and returns it to the others', async () => {
    const dir = await tempDir()
    dirs.push(dir)
    const store = new FileAlarmStore(new TelematicsStore(dir))
    const answers = await Promise.all([1, 2, 3, 4].map(() => store.insert(alarm(2, 'same'))))
    expect(answers.filter((a) => a.created)).toHaveLength(1)
    expect(new Set(answers.map((a) => a.alarm.id))).toEqual(new Set([1]))
    expect(await new FileAlarmStore(new TelematicsStore(dir)).list()).toHaveLength(1)
    expect(await store.version()).toBe('1')
  })
})
