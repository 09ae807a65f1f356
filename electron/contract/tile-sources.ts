/**
 * The origins an XYZ tile template loads from, as a Content-Security-Policy names them: `{a-c}` and
 * `{1-4}` (OpenLayers' host ranges) expand to each host; any other placeholder in the host stands for
 * one label (`*.example.com`). `[]` when the template is not an http(s) URL.
 */
export function tileSources(template: string): string[] {
  const range = /\{([a-z0-9])-([a-z0-9])\}/i.exec(template)
  if (range) {
    const [from, to] = [range[1]!.charCodeAt(0), range[2]!.charCodeAt(0)]
    if (to < from || to - from > 25) return []
    const expanded = Array.from({ length: to - from + 1 }, (_, i) =>
      tileSources(template.replace(range[0], String.fromCharCode(from + i))),
    )
    return [...new Set(expanded.flat())]
  }
  const schemeEnd = template.indexOf('://')
  if (schemeEnd < 0) return []
  const authorityEnd = template.slice(schemeEnd + 3).search(/[/?#]|$/) + schemeEnd + 3
  // A placeholder left in the host is one DNS label of any name.
  const authority = template.slice(schemeEnd + 3, authorityEnd).replace(/^\{[^}]*\}\./, 'placeholder.')
  let url: URL
  try {
    url = new URL(`${template.slice(0, schemeEnd)}://${authority}/`)
  } catch {
    return []
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return []
  const host = url.host.startsWith('placeholder.') ? `*${url.host.slice('placeholder'.length)}` : url.host
  if (host.includes('{')) return []
  return [`${url.protocol}//${host}`]
}
