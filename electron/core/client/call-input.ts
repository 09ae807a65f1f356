import type { Result } from '../../contract'
import type { InterfaceTable } from '../../contract/operation'
import { GeoFailure } from '../../base/geo-failure'

/** What a caller (the CLI's `call`, a script) gives an interface operation beyond the client. */
export interface CallInput {
  /** `name=value` parameters as typed. */
  params: Record<string, string>
  /** A parsed JSON body (`--body FILE`), for operations that take one. */
  body?: unknown
  /** A file (`--file FILE`), for uploads. */
  file?: { fileName: string; bytes: Uint8Array }
  /** Resend a state change whose earlier outcome is unknown. */
  confirm?: boolean
  signal?: AbortSignal
}

/**
 * One operation's call over a client: `C` is the part of the client it needs (an area's calls take only their
 * own area's client, so an area never imports the client that assembles every area).
 */
export type Call<C = unknown> = (client: C, input: CallInput) => Promise<Result<unknown>>

/** An area's calls: one per operation of its interface table, and no other. */
export type CallTable<T extends InterfaceTable, C> = { readonly [K in keyof T]: Call<C> }

/** What every call may be given: a signal to cancel it. */
export interface CallOptions {
  signal?: AbortSignal
}

/** Refuse parameters an operation without any was given, naming the first. */
export function noParams(operation: string, input: CallInput, what = 'takes no parameters'): void {
  const first = Object.keys(input.params)[0]
  if (first !== undefined) throw new GeoFailure('validation', `${operation} ${what}`, { field: first })
}
