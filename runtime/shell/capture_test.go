package shell

import (
	"bytes"
	"strconv"
	"testing"
	"unicode/utf8"
)

// FuzzCapture checks the capture against the whole stream: what is kept is
// the stream itself when it fits, else a prefix, the marker with the right
// count and a suffix, within the cap, never cutting a valid rune.
func FuzzCapture(f *testing.F) {
	f.Add([]byte("hello world"), 4, 3)
	f.Add([]byte("ééééé"), 5, 2)
	f.Add(bytes.Repeat([]byte("0123456789"), 100), 33, 7)
	f.Add([]byte{0xff, 0x80, 0x80, 0x80, 0x80, 'a'}, 3, 1)
	f.Fuzz(func(t *testing.T, data []byte, limit, chunk int) {
		if limit <= 0 || limit > 1<<12 || chunk <= 0 {
			t.Skip()
		}
		c := newCapture(limit, nil)
		for p := data; len(p) > 0; {
			k := min(chunk, len(p))
			if n, err := c.Write(p[:k]); n != k || err != nil {
				t.Fatalf("Write = %d, %v", n, err)
			}
			p = p[k:]
		}
		got, truncated := c.bytes()
		if c.total != int64(len(data)) {
			t.Fatalf("total %d, want %d", c.total, len(data))
		}
		if len(data) <= limit {
			if truncated || !bytes.Equal(got, data) {
				t.Fatalf("fits but got %q (truncated %v), want %q", got, truncated, data)
			}
			return
		}
		if !truncated {
			t.Fatal("not truncated")
		}
		i := bytes.Index(got, []byte("[... "))
		j := bytes.Index(got, []byte(" bytes omitted ...]\n"))
		if i < 0 || j < i {
			t.Fatalf("no marker in %q", got)
		}
		head, tail := got[:i], got[j+len(" bytes omitted ...]\n"):]
		omitted, err := strconv.Atoi(string(got[i+len("[... ") : j]))
		if err != nil {
			t.Fatal(err)
		}
		// A newline before the marker is the data's own or one the marker
		// added; the count tells which (a head of "000" with "\n" omitted
		// looks like a head of "000\n").
		if len(head) > 0 && head[len(head)-1] == '\n' && len(head)+len(tail)+omitted != len(data) {
			head = head[:len(head)-1] // the newline the marker added
		}
		if !bytes.HasPrefix(data, head) || !bytes.HasSuffix(data, tail) {
			t.Fatalf("%q is not head+tail of %q", got, data)
		}
		if len(head)+len(tail)+omitted != len(data) || len(head)+len(tail) > limit {
			t.Fatalf("head %d + tail %d + omitted %d != %d (limit %d)", len(head), len(tail), omitted, len(data), limit)
		}
		if len(got) > limit+64 {
			t.Fatalf("kept %d, limit %d", len(got), limit)
		}
		if utf8.Valid(data) && !utf8.Valid(got) {
			t.Fatalf("cutting valid UTF-8 made %q", got)
		}
	})
}
