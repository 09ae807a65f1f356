import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import {
  jpegMetadata,
  pngMetadata,
  withJpegMetadata,
  withPngMetadata,
} from '../../../../../electron/local-service/vision/engine/metadata'

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:GPano="http://ns.google.com/photos/1.0/panorama/" GPano:ProjectionType="equirectangular" GPano:UsePanoramaViewer="True"/></rdf:RDF></x:xmpmeta>`

const image = () => sharp({ create: { width: 64, height: 32, channels: 3, background: '#808080' } })

describe('carrying metadata into the re-encoded image', () => {
  it('JPEG: EXIF and XMP (GPano) come over byte for byte, the image stays decodable', async () => {
    const original = await image()
      .withExif({ IFD0: { Make: 'Insta360', Model: 'X3', Copyright: 'Survey 7' } })
      .withXmp(XMP)
      .jpeg()
      .toBuffer()
    const segments = jpegMetadata(original)
    expect(segments.length).toBeGreaterThanOrEqual(2)
    const reencoded = await image().jpeg({ quality: 70 }).toBuffer()
    expect((await sharp(reencoded).metadata()).xmp).toBeUndefined()
    const out = withJpegMetadata(reencoded, segments)
    const meta = await sharp(out).metadata()
    expect(meta.xmp?.toString()).toContain('GPano:ProjectionType="equirectangular"')
    expect(Buffer.from(meta.exif ?? []).toString('latin1')).toContain('Insta360')
    expect({ width: meta.width, height: meta.height, format: meta.format }).toEqual({
      width: 64,
      height: 32,
      format: 'jpeg',
    })
    expect(jpegMetadata(out).map((s) => Buffer.from(s).toString('hex'))).toEqual(
      segments.map((s) => Buffer.from(s).toString('hex')),
    )
    await expect(sharp(out).raw().toBuffer()).resolves.toHaveLength(64 * 32 * 3)
  })

  it('PNG: the text chunk with the XMP comes over, the encoder’s own copies go', async () => {
    const original = await image().withXmp(XMP).png().toBuffer()
    const out = withPngMetadata(await image().png().toBuffer(), pngMetadata(original))
    const meta = await sharp(out).metadata()
    expect(meta.xmp?.toString()).toContain('equirectangular')
    await expect(sharp(out).raw().toBuffer()).resolves.toHaveLength(64 * 32 * 3)
  })

  it('refuses to splice into something that is no JPEG', () => {
    expect(() => withJpegMetadata(new Uint8Array([1, 2, 3]), [])).toThrow(/no valid JPEG/)
  })
})
