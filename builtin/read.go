package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/tool"
)

// ReadInput is the input of the Read tool.
//
//tool:name Read
//tool:unexported
//tool:title Read file
//tool:keywords open, view, show, cat, display, print, contents, look at, inspect
//tool:description Reads a text file, or an image, from the local file system. file_path should be absolute; a relative path is resolved against the working directory.
//tool:description By default it reads up to 2000 lines from the start of the file; for a longer file, give offset and limit to read a part of it.
//tool:description The output is in cat -n form: the line number, an arrow (→), then the line. Lines longer than 2000 characters are cut and end with '...'. One call shows at most 512 KiB, whatever limit says; a note then gives the offset to read on from.
//tool:description A PNG, JPEG, GIF or WebP image of up to 3.75 MiB is shown as an image; other binary files are refused with their size and type. Bytes that are not valid UTF-8 are shown as U+FFFD.
//tool:description A file must be read before Write or Edit may change it.
//tool:concurrency safe
//tool:side-effect read-only
//tool:subject path file_path
type ReadInput struct {
	// The absolute path of the file to read.
	FilePath string `json:"file_path" tool:"required"`
	// The line number to start reading at; 1 is the first line. Only give it when the file is too long to read at once.
	Offset *int `json:"offset,omitempty"`
	// The number of lines to read; 2000 when not given. Only give it when the file is too long to read at once.
	Limit *int `json:"limit,omitempty"`
}

const (
	// defaultReadLimit is the number of lines Read shows without a limit.
	defaultReadLimit = 2000
	// maxLineRunes is the length in characters beyond which a line is cut.
	maxLineRunes = 2000
	// maxLineBytes is the most bytes of one line Read keeps: enough for
	// maxLineRunes characters of any width.
	maxLineBytes = maxLineRunes * utf8.UTFMax
	// sniffBytes is how much of a file is looked at to tell binary from text.
	sniffBytes = 8 << 10
	// readBufferBytes is the size of Read's buffered reader.
	readBufferBytes = 64 << 10
	// maxReadBytes bounds the output of one Read, whatever its limit: the
	// executor cuts results at 1 MiB by default, and a model gains nothing
	// from more at once.
	maxReadBytes = 512 << 10
	// checkEvery is how many lines the file tools go through between two
	// looks at their context; a long line is checked once per buffer.
	checkEvery = 256
)

// emptyFileWarning is Read's answer for a file with no bytes.
const emptyFileWarning = "[System Warning: This file is empty]"

// files holds what the file tools share.
type files struct {
	ws *workspace
}

// read is the Read tool. It streams the file: however large, it reads only
// up to the last line it shows, holding at most one buffer and one
// (cut) line in memory.
func (f *files) read(ctx context.Context, in ReadInput, tc tool.Context) (string, error) {
	res, err := f.readResult(ctx, in, tc)
	return res.Content, err
}

// readResult is the Read tool's function: the text of a text file, or an
// image part (with a line of text naming it) for a PNG, JPEG, GIF or WebP
// image.
func (f *files) readResult(ctx context.Context, in ReadInput, tc tool.Context) (tool.Result, error) {
	text, img, err := f.readFile(ctx, in, tc)
	if err != nil {
		return tool.Result{}, err
	}
	if img != nil {
		return tool.SuccessParts(tool.Part{Kind: tool.TextPart, Text: img.caption}, tool.Part{Kind: tool.ImagePart, Data: img.data, MIMEType: img.mimeType}), nil
	}
	return tool.Success(text), nil
}

// readFile reads the file in names: its text, or the image it holds.
func (f *files) readFile(ctx context.Context, in ReadInput, tc tool.Context) (string, *readImage, error) {
	offset, limit := 1, defaultReadLimit
	if in.Offset != nil {
		if *in.Offset < 1 {
			return "", nil, fail("offset must be >= 1, got: %d", *in.Offset)
		}
		offset = *in.Offset
	}
	if in.Limit != nil {
		if *in.Limit < 1 {
			return "", nil, fail("limit must be >= 1, got: %d", *in.Limit)
		}
		limit = *in.Limit
	}
	loc, err := f.ws.resolve(in.FilePath, tc)
	if err != nil {
		return "", nil, err
	}
	defer loc.fs.Close()
	fh, fi, err := openRegular(loc)
	if err != nil {
		return "", nil, err
	}
	defer fh.Close()
	if !allowedOpen(f.ws.filter(tc), fh, loc.abs) {
		return "", nil, notAllowed(ReadName)
	}
	if fi.Size() == 0 {
		markRead(tc, loc, fi)
		return emptyFileWarning, nil, nil
	}
	br := bufio.NewReaderSize(fh, readBufferBytes)
	head, err := br.Peek(sniffBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return "", nil, readError(loc, err)
	}
	kind, binary := sniff(head)
	if mimeType, isImage := imageTypes[kind]; isImage && ctx.Err() == nil {
		if img, ok, err := loadImage(br, loc, fi, kind, mimeType); ok || err != nil {
			if err == nil {
				markRead(tc, loc, fi)
			}
			return "", img, err
		}
	}
	if binary {
		return "", nil, fail("Cannot display the binary file %s (%s, %d bytes). Read shows text files only.", loc.abs, kind, fi.Size())
	}

	var out strings.Builder
	keep := make([]byte, 0, maxLineBytes)
	lineNo, shown := 0, 0
	capped := false // the output reached maxReadBytes
	for shown < limit {
		if lineNo%checkEvery == 0 && ctx.Err() != nil {
			return "", nil, cancelled(ctx, "Read of "+loc.abs)
		}
		want := 0
		if lineNo+1 >= offset {
			want = maxLineBytes
		}
		line, dropped, ok, err := nextLine(ctx, br, keep, want)
		if err != nil {
			if ctx.Err() != nil {
				return "", nil, cancelled(ctx, "Read of "+loc.abs)
			}
			return "", nil, readError(loc, err)
		}
		if !ok {
			break
		}
		lineNo++
		if lineNo < offset {
			continue
		}
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\uFEFF"))
		}
		// A line costs at most its bytes, the number, the arrow, the
		// newline and the cut mark; U+FFFD may take three bytes for one.
		if shown > 0 && out.Len()+3*len(line)+16 > maxReadBytes {
			capped = true
			lineNo--
			break
		}
		if shown > 0 {
			out.WriteByte('\n')
		}
		writeNumbered(&out, lineNo, line, dropped)
		shown++
	}
	if shown == 0 {
		return "", nil, fail("Offset %d is past the end of %s, which has %s. Use an offset between 1 and %d.", offset, loc.abs, plural(lineNo, "line"), max(lineNo, 1))
	}
	switch _, err := br.Peek(1); {
	case capped:
		out.WriteString("\n\n[Showing lines ")
		out.WriteString(strconv.Itoa(offset))
		out.WriteByte('-')
		out.WriteString(strconv.Itoa(lineNo))
		out.WriteString(": Read shows at most 512 KiB at once. Read on with offset=")
		out.WriteString(strconv.Itoa(lineNo + 1))
		out.WriteString(".]")
	case err == nil:
		out.WriteString("\n\n[Showing lines ")
		out.WriteString(strconv.Itoa(offset))
		out.WriteByte('-')
		out.WriteString(strconv.Itoa(lineNo))
		out.WriteString(". The file has more lines: read on with offset=")
		out.WriteString(strconv.Itoa(lineNo + 1))
		out.WriteString(".]")
	}
	markRead(tc, loc, fi)
	return out.String(), nil, nil
}

// writeNumbered writes one line in cat -n form: the number right-aligned in
// six columns, an arrow, then the line, cut at maxLineRunes characters.
// Invalid UTF-8 becomes U+FFFD.
func writeNumbered(out *strings.Builder, n int, line []byte, dropped bool) {
	var nb [20]byte
	num := strconv.AppendInt(nb[:0], int64(n), 10)
	for i := len(num); i < 6; i++ {
		out.WriteByte(' ')
	}
	out.Write(num)
	out.WriteString("→")
	if !dropped && len(line) <= maxLineRunes && utf8.Valid(line) {
		out.Write(line)
		return
	}
	s := string(line)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if dropped || len(s) > maxLineRunes && utf8.RuneCountInString(s) > maxLineRunes {
		s = cutRunes(s, maxLineRunes) + "..."
	}
	out.WriteString(s)
}

// cutRunes returns the first n characters of s.
func cutRunes(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// nextLine reads the next line of br without its line terminator ("\n" or
// "\r\n"), keeping at most want bytes of it in keep's storage; dropped
// reports whether bytes beyond want were skipped. ok is false at the end
// of the input. A line of any length costs no more memory than br's buffer,
// and ctx is checked once per buffer of it, so that a line gigabytes long
// does not outlive its call.
func nextLine(ctx context.Context, br *bufio.Reader, keep []byte, want int) (line []byte, dropped, ok bool, err error) {
	buf := keep[:0]
	total := 0
	for {
		chunk, err := br.ReadSlice('\n')
		if err != nil && total > 0 {
			if cerr := ctx.Err(); cerr != nil {
				return nil, false, false, cerr
			}
		}
		if len(chunk) > 0 {
			ok = true
		}
		end := err == nil
		if end {
			chunk = chunk[:len(chunk)-1]
		}
		total += len(chunk)
		if room := want - len(buf); room > 0 {
			buf = append(buf, chunk[:min(room, len(chunk))]...)
		}
		switch {
		case end:
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
		default:
			return nil, false, false, err
		}
		break
	}
	dropped = total > len(buf)
	if !dropped {
		buf = bytes.TrimSuffix(buf, []byte("\r"))
	}
	return buf, dropped && want > 0, ok, nil
}

// openRegular opens loc for reading when it is a regular file. The mode is
// checked before the open, so that a FIFO or a device is never opened, and
// again on the open file, in case it was swapped in between; the open does
// not block (O_NONBLOCK) either way.
func openRegular(loc location) (*os.File, fs.FileInfo, error) {
	fi, err := loc.fs.Stat(loc.name)
	if err != nil {
		return nil, nil, openError(loc, err)
	}
	if err := checkRegular(loc, fi); err != nil {
		return nil, nil, err
	}
	fh, err := loc.fs.OpenFile(loc.name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, nil, openError(loc, err)
	}
	fi, err = fh.Stat()
	if err == nil {
		err = checkRegular(loc, fi)
	} else {
		err = openError(loc, err)
	}
	if err != nil {
		fh.Close()
		return nil, nil, err
	}
	return fh, fi, nil
}

func checkRegular(loc location, fi fs.FileInfo) error {
	if fi.IsDir() {
		return fail("Cannot read directory: %s. Use 'ls' command to list directory contents.", loc.abs)
	}
	if !fi.Mode().IsRegular() {
		return fail("Cannot read %s: it is %s. Read reads regular files only.", loc.abs, kindOf(fi.Mode()))
	}
	return nil
}

func readError(loc location, err error) error {
	if errors.Is(err, fs.ErrPermission) {
		return failWith(err, "Permission denied: %s", loc.abs)
	}
	return failWith(err, "Cannot read %s: %s.", loc.abs, reason(err))
}

// markRead records loc as read at fi's version in the run's read-files set.
func markRead(tc tool.Context, loc location, fi fs.FileInfo) {
	if rf := tc.ReadFiles(); rf != nil {
		rf.Mark(loc.abs, version(fi))
	}
}

// magic lists the leading bytes of common binary formats.
var magic = []struct {
	prefix string
	kind   string
}{
	{"\x89PNG\r\n\x1a\n", "PNG image"},
	{"\xff\xd8\xff", "JPEG image"},
	{"GIF87a", "GIF image"},
	{"GIF89a", "GIF image"},
	{"%PDF-", "PDF document"},
	{"PK\x03\x04", "ZIP archive"},
	{"\x1f\x8b", "gzip data"},
	{"\xfd7zXZ\x00", "xz data"},
	{"7z\xbc\xaf\x27\x1c", "7-Zip archive"},
	{"\x7fELF", "ELF executable"},
	{"\xcf\xfa\xed\xfe", "Mach-O executable"},
	{"\xfe\xed\xfa\xcf", "Mach-O executable"},
	{"\x00asm", "WebAssembly module"},
	{"SQLite format 3\x00", "SQLite database"},
	{"\xff\xfe", "UTF-16 text"},
	{"\xfe\xff", "UTF-16 text"},
}

// sniff tells a binary file from a text file by its first bytes: a known
// binary signature, or a NUL byte (as grep and git decide), means binary.
func sniff(head []byte) (kind string, binary bool) {
	for _, m := range magic {
		if bytes.HasPrefix(head, []byte(m.prefix)) {
			return m.kind, true
		}
	}
	if len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP" {
		return "WebP image", true
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "binary data", true
	}
	return "", false
}

// cancelled is the answer of a file tool whose call ended before it did:
// what was cancelled and why, as the executor words it.
func cancelled(ctx context.Context, what string) error {
	err := ctx.Err()
	if errors.Is(err, context.DeadlineExceeded) {
		return failWith(err, "%s was cancelled: the deadline passed.", what)
	}
	return failWith(err, "%s was cancelled.", what)
}

// plural returns "1 line" or "n lines" ("n matches").
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	if strings.HasSuffix(word, "ch") || strings.HasSuffix(word, "s") || strings.HasSuffix(word, "x") {
		return strconv.Itoa(n) + " " + word + "es"
	}
	return strconv.Itoa(n) + " " + word + "s"
}
