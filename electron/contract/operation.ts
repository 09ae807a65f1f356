import type { z } from 'zod'

/** One operation the renderer may call: its request and response schemas. */
export interface OperationSpec<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly request: Req
  readonly response: Res
  readonly summary: string
}

/** A table of renderer operations, one per area (`electron/contract/<area>/operations.ts`). */
export type OperationTable = Readonly<Record<string, OperationSpec>>

export function op<Req extends z.ZodType, Res extends z.ZodType>(
  request: Req,
  response: Res,
  summary: string,
): OperationSpec<Req, Res> {
  return { request, response, summary }
}

/** A parameter of an interface operation, as `geo-analyst call --help` lists it. */
export interface ParamDoc {
  name: string
  /** Required by the spec; `conditional` when another parameter decides it. */
  required: boolean | 'conditional'
}

/**
 * One operation of the interface (spec §4): what the CLI's `call` and the client tables are built from. The
 * request rules themselves are the area's validators; this is the description.
 */
export interface InterfaceOperation {
  /** `area.verb`, e.g. `routing.matrix`. */
  readonly section: string
  readonly summary: string
  readonly params: readonly ParamDoc[]
  /** A JSON body (`--body FILE`) the operation takes. */
  readonly body?: 'json'
  /** A file upload (`--file FILE`) the operation takes. */
  readonly file?: boolean
  /** A state change: never replayed after an ambiguous failure (`--confirm` to resend after one). */
  readonly changesState?: boolean
}

export type InterfaceTable = Readonly<Record<string, InterfaceOperation>>

/** Parameter docs from a validator's shapes and its required names (others are optional or `conditional`). */
export function paramDocs(
  shapes: Readonly<Record<string, unknown>>,
  required: readonly string[],
  conditional: readonly string[] = [],
): ParamDoc[] {
  return Object.keys(shapes).map((name) => ({
    name,
    required: required.includes(name) ? true : conditional.includes(name) ? 'conditional' : false,
  }))
}

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never

/** Join area tables into one, refusing a name two areas both claim. */
export function unionOf<T extends Array<Record<string, unknown>>>(...tables: T): Intersection<T[number]> {
  const out: Record<string, unknown> = {}
  for (const table of tables) {
    for (const [name, value] of Object.entries(table)) {
      if (Object.prototype.hasOwnProperty.call(out, name))
        throw new Error(`operation ${name} is declared twice`)
      out[name] = value
    }
  }
  return out as Intersection<T[number]>
}
