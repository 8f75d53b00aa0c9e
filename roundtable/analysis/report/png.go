package report

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"io"
)

// writePNG encodes img as a PNG. An opaque *image.RGBA, which every
// figure is, is written as 8-bit RGB with unfiltered rows deflated at the
// fastest level: a chart is mostly flat colour, which deflate packs well
// without PNG's per-row filters, and trying those filters took most of
// the time of a report. Other images go through image/png.
func writePNG(w io.Writer, img image.Image) error {
	rgba, ok := img.(*image.RGBA)
	if !ok || !rgba.Opaque() {
		return (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(w, img)
	}
	b := rgba.Bounds()
	var idat bytes.Buffer
	zw, err := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	if err != nil {
		return err
	}
	row := make([]byte, 1+3*b.Dx()) // row[0] = 0: filter type None
	for y := b.Min.Y; y < b.Max.Y; y++ {
		px := rgba.Pix[rgba.PixOffset(b.Min.X, y):]
		for x := range b.Dx() {
			copy(row[1+3*x:4+3*x], px[4*x:4*x+3])
		}
		if _, err := zw.Write(row); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(b.Dx()))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(b.Dy()))
	ihdr[8], ihdr[9] = 8, 2 // 8 bits a sample, RGB; deflate, adaptive filtering, no interlace
	bw := bufio.NewWriter(w)
	bw.WriteString("\x89PNG\r\n\x1a\n")
	for _, c := range []struct {
		kind string
		data []byte
	}{{"IHDR", ihdr}, {"IDAT", idat.Bytes()}, {"IEND", nil}} {
		writeChunk(bw, c.kind, c.data)
	}
	return bw.Flush()
}

// writeChunk writes one PNG chunk: length, type, data and the CRC of type
// and data. Errors surface at the bufio.Writer's Flush.
func writeChunk(w *bufio.Writer, kind string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	w.WriteString(kind)
	w.Write(data)
	crc := crc32.NewIEEE()
	crc.Write([]byte(kind))
	crc.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	w.Write(n[:])
}
