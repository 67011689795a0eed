package builtin

import (
	"bufio"
	"bytes"
	"fmt"
	"image"
	_ "image/gif" // GIF headers for image.DecodeConfig
	_ "image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
)

// maxImageBytes bounds the images Read returns: 3.75 MiB, which is 5 MiB
// once base64-encoded, the most the model APIs take for one image.
const maxImageBytes = 3840 << 10

// imageTypes maps the kinds sniff names to the media types of the images
// Read returns as images.
var imageTypes = map[string]string{
	"PNG image":  "image/png",
	"JPEG image": "image/jpeg",
	"GIF image":  "image/gif",
	"WebP image": "image/webp",
}

// readImage is an image Read returns.
type readImage struct {
	data     []byte
	mimeType string
	caption  string
}

// loadImage reads the image br starts with. ok is false for a file whose
// header does not decode as the image its signature says (a truncated or
// fake image), which Read then refuses as binary; an image larger than
// maxImageBytes is an error that says so.
func loadImage(br *bufio.Reader, loc location, fi fs.FileInfo, kind, mimeType string) (*readImage, bool, error) {
	if fi.Size() > maxImageBytes {
		return nil, false, fail("The image %s (%s, %d bytes) is larger than Read shows (%d bytes). Make a smaller copy (for example with ImageMagick's convert -resize) and read that.", loc.abs, kind, fi.Size(), maxImageBytes)
	}
	data, err := io.ReadAll(io.LimitReader(br, maxImageBytes+1))
	if err != nil {
		return nil, false, readError(loc, err)
	}
	if len(data) > maxImageBytes { // it grew since it was opened
		return nil, false, fail("The image %s (%s) is larger than Read shows (%d bytes). Make a smaller copy and read that.", loc.abs, kind, maxImageBytes)
	}
	w, h, ok := imageSize(data, mimeType)
	if !ok {
		return nil, false, nil
	}
	return &readImage{
		data:     data,
		mimeType: mimeType,
		caption:  fmt.Sprintf("Image %s (%s, %dx%d, %d bytes):", loc.abs, kind, w, h, len(data)),
	}, true, nil
}

// imageSize reads an image's width and height from its header; ok is false
// when the header does not decode.
func imageSize(data []byte, mimeType string) (w, h int, ok bool) {
	if mimeType == "image/webp" {
		return webpSize(data)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return 0, 0, false
	}
	return cfg.Width, cfg.Height, true
}

// webpSize reads the canvas size of a WebP file: the first chunk after the
// RIFF header is VP8 (lossy), VP8L (lossless) or VP8X (extended).
func webpSize(b []byte) (w, h int, ok bool) {
	if len(b) < 30 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	le16 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 }
	le24 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 }
	chunk := b[20:]
	switch string(b[12:16]) {
	case "VP8 ":
		// frame tag (3 bytes), start code 9d 01 2a, then 14-bit sizes.
		if chunk[3] != 0x9d || chunk[4] != 0x01 || chunk[5] != 0x2a {
			return 0, 0, false
		}
		w, h = le16(chunk[6:])&0x3fff, le16(chunk[8:])&0x3fff
	case "VP8L":
		if chunk[0] != 0x2f {
			return 0, 0, false
		}
		bits := uint32(chunk[1]) | uint32(chunk[2])<<8 | uint32(chunk[3])<<16 | uint32(chunk[4])<<24
		w, h = int(bits&0x3fff)+1, int(bits>>14&0x3fff)+1
	case "VP8X":
		w, h = le24(chunk[4:])+1, le24(chunk[7:])+1
	default:
		return 0, 0, false
	}
	return w, h, w > 0 && h > 0
}
