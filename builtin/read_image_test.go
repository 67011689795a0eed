package builtin

import (
	"bytes"
	"context"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/tool"
)

func encodeImage(t *testing.T, kind string, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	var err error
	switch kind {
	case "png":
		err = png.Encode(&buf, img)
	case "jpeg":
		err = jpeg.Encode(&buf, img, nil)
	case "gif":
		err = gif.Encode(&buf, img, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// webpLossless returns the header of a lossless WebP of w x h pixels: the
// RIFF container, a VP8L chunk and its packed sizes (Read reads no more).
func webpLossless(w, h int) []byte {
	bits := uint32(w-1) | uint32(h-1)<<14
	chunk := []byte{0x2f, byte(bits), byte(bits >> 8), byte(bits >> 16), byte(bits >> 24), 0, 0, 0, 0, 0}
	var b bytes.Buffer
	b.WriteString("RIFF")
	_ = binary.Write(&b, binary.LittleEndian, uint32(4+8+len(chunk)))
	b.WriteString("WEBPVP8L")
	_ = binary.Write(&b, binary.LittleEndian, uint32(len(chunk)))
	b.Write(chunk)
	return b.Bytes()
}

func TestReadImage(t *testing.T) {
	pngData := encodeImage(t, "png", 3, 2)
	jpegData := encodeImage(t, "jpeg", 4, 4)
	gifData := encodeImage(t, "gif", 5, 1)
	webpData := webpLossless(7, 9)
	tests := []struct {
		name, file string
		data       []byte
		wantType   string
		wantText   string // with %s for the path
	}{
		{"png", "a.png", pngData, "image/png", "Image %s (PNG image, 3x2, %d bytes):"},
		{"jpeg", "a.jpg", jpegData, "image/jpeg", "Image %s (JPEG image, 4x4, %d bytes):"},
		{"gif", "a.gif", gifData, "image/gif", "Image %s (GIF image, 5x1, %d bytes):"},
		{"webp", "a.webp", webpData, "image/webp", "Image %s (WebP image, 7x9, %d bytes):"},
		{"an image by its bytes, whatever its name", "picture.txt", pngData, "image/png", "Image %s (PNG image, 3x2, %d bytes):"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			p := e.file(tt.file, string(tt.data))
			res, err := e.f.readResult(context.Background(), ReadInput{FilePath: p}, e.tc)
			if err != nil {
				t.Fatalf("readResult: %v", err)
			}
			caption := strings.Replace(strings.Replace(tt.wantText, "%s", p, 1), "%d", itoa(len(tt.data)), 1)
			want := []tool.Part{tool.Part{Kind: tool.TextPart, Text: caption}, tool.Part{Kind: tool.ImagePart, Data: tt.data, MIMEType: tt.wantType}}
			if diff := cmp.Diff(want, res.Parts); diff != "" {
				t.Errorf("parts (-want +got):\n%s", diff)
			}
			if want := caption + "\n[image: " + tt.wantType + ", " + itoa(len(tt.data)) + " bytes]"; res.Content != want {
				t.Errorf("content = %q, want %q", res.Content, want)
			}
			if !e.tc.ReadFiles().Has(p) {
				t.Error("the image was not recorded as read")
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestReadImageRefused(t *testing.T) {
	big := append(encodeImage(t, "png", 1, 1), make([]byte, maxImageBytes)...)
	tests := []struct {
		name, content, want string
	}{
		{"a png signature over no image", "\x89PNG\r\n\x1a\nrest",
			"Cannot display the binary file %s (PNG image, 12 bytes). Read shows text files only."},
		{"a webp header with no frame", "RIFF\x00\x00\x00\x00WEBPVP8 \x00\x00\x00\x00" + strings.Repeat("\x00", 12),
			"Cannot display the binary file %s (WebP image, 32 bytes). Read shows text files only."},
		{"too large", string(big),
			"The image %s (PNG image, " + itoa(len(big)) + " bytes) is larger than Read shows (3932160 bytes). Make a smaller copy (for example with ImageMagick's convert -resize) and read that."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newTestEnv(t)
			p := e.file("f.png", tt.content)
			got, err := e.read(ReadInput{FilePath: p})
			check(t, got, err, strings.Replace(tt.want, "%s", p, 1), true)
		})
	}
}

// The Read tool itself (generated Execute, executor) hands the parts on.
func TestReadToolReturnsImagePart(t *testing.T) {
	e := newTestEnv(t)
	data := encodeImage(t, "png", 2, 2)
	p := e.file("x.png", string(data))
	res := newReadTool(e.f.readResult).Execute(context.Background(), tool.NewInput(map[string]any{"file_path": p}), e.tc)
	if res.IsError {
		t.Fatalf("error result: %s", res.Content)
	}
	if len(res.Parts) != 2 || res.Parts[1].Kind != tool.ImagePart || !bytes.Equal(res.Parts[1].Data, data) {
		t.Errorf("parts = %+v, want a caption and the image", res.Parts)
	}
}

// FuzzWebpSize: the WebP header reader never panics, and a size it reads
// is positive and within the 14-bit (VP8, VP8L) or 24-bit (VP8X) range.
func FuzzWebpSize(f *testing.F) {
	f.Add(webpLossless(7, 9))
	f.Add(webpLossless(16384, 16384))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00\x00\x00\x00\x00\xff\x00\x00\x0f\x00\x00"))
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 \x00\x00\x00\x00\x00\x00\x00\x9d\x01\x2a\x10\x00\x20\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		w, h, ok := webpSize(b)
		if !ok {
			return
		}
		if w <= 0 || h <= 0 || w > 1<<24 || h > 1<<24 {
			t.Errorf("webpSize = %dx%d", w, h)
		}
	})
}
