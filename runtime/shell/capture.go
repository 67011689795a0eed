package shell

import (
	"io"
	"strconv"
	"sync"
	"unicode/utf8"
)

// capture is the io.Writer a stream is copied into. It keeps the first
// headMax and the last tailMax bytes, counts everything, and never fails:
// an error from Write would make the copying goroutine stop reading, the
// command would then die of SIGPIPE and its exit code would be lost.
//
// Memory is bounded by headMax+tailMax whatever is written: the head grows
// up to headMax, the tail is a ring allocated once the head is full.
type capture struct {
	headMax, tailMax int
	head             []byte
	ring             []byte // tail ring; nil until the head is full
	ringPos          int    // where the next tail byte goes
	ringLen          int    // valid bytes in ring
	total            int64
	live             io.Writer // nil, or a copy of everything; dropped on its first error
}

func newCapture(limit int, live io.Writer) *capture {
	head := limit - limit/2
	return &capture{headMax: head, tailMax: limit - head, live: live}
}

func (c *capture) Write(p []byte) (int, error) {
	n := len(p)
	c.total += int64(n)
	if c.live != nil {
		if _, err := c.live.Write(p); err != nil {
			c.live = nil
		}
	}
	if room := c.headMax - len(c.head); room > 0 {
		k := min(room, len(p))
		c.growHead(k)
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	if len(p) == 0 || c.tailMax == 0 {
		return n, nil
	}
	if c.ring == nil {
		c.ring = make([]byte, c.tailMax)
	}
	if len(p) >= c.tailMax {
		copy(c.ring, p[len(p)-c.tailMax:])
		c.ringPos, c.ringLen = 0, c.tailMax
		return n, nil
	}
	k := copy(c.ring[c.ringPos:], p)
	copy(c.ring, p[k:])
	c.ringPos = (c.ringPos + len(p)) % c.tailMax
	c.ringLen = min(c.ringLen+len(p), c.tailMax)
	return n, nil
}

// copyBufs are the read buffers of ReadFrom, shared between runs.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// ReadFrom copies r into the capture until EOF or a read error. exec's
// copying goroutine uses it (through io.Copy), so a run borrows a pooled
// buffer instead of allocating one per stream. Read errors end the copy
// but are not reported: a closed pipe is how every stream ends.
func (c *capture) ReadFrom(r io.Reader) (int64, error) {
	bp := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(bp)
	buf := *bp
	var n int64
	for {
		k, err := r.Read(buf)
		if k > 0 {
			c.Write(buf[:k])
			n += int64(k)
		}
		if err != nil {
			return n, nil
		}
	}
}

// growHead makes room for k more head bytes without ever reserving more
// than headMax, so a small output costs a small buffer and a large one
// exactly the cap.
func (c *capture) growHead(k int) {
	need := len(c.head) + k
	if need <= cap(c.head) {
		return
	}
	newCap := min(max(2*cap(c.head), need, 512), c.headMax)
	b := make([]byte, len(c.head), newCap)
	copy(b, c.head)
	c.head = b
}

// bytes returns what was kept, with an elision marker where bytes were
// dropped, and whether any were.
func (c *capture) bytes() ([]byte, bool) {
	if c.total == 0 {
		return nil, false
	}
	kept := int64(len(c.head) + c.ringLen)
	if kept == c.total {
		if c.ringLen == 0 {
			return c.head, false
		}
		out := make([]byte, 0, kept)
		out = append(out, c.head...)
		return c.appendTail(out), false
	}
	head := trimHead(c.head)
	tail := c.appendTail(nil)
	t := trimTail(tail)
	omitted := c.total - int64(len(head)) - int64(len(t))
	out := make([]byte, 0, len(head)+len(t)+64)
	out = append(out, head...)
	out = appendMarker(out, omitted)
	out = append(out, t...)
	return out, true
}

func (c *capture) appendTail(out []byte) []byte {
	if c.ringLen < len(c.ring) {
		return append(out, c.ring[:c.ringLen]...)
	}
	out = append(out, c.ring[c.ringPos:]...)
	return append(out, c.ring[:c.ringPos]...)
}

// appendMarker appends the elision marker on a line of its own.
func appendMarker(out []byte, omitted int64) []byte {
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, "[... "...)
	out = strconv.AppendInt(out, omitted, 10)
	return append(out, " bytes omitted ...]\n"...)
}

// trimHead drops an incomplete UTF-8 sequence at the end of b.
func trimHead(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if !utf8.RuneStart(b[i]) {
			continue
		}
		if !utf8.FullRune(b[i:]) {
			return b[:i]
		}
		return b
	}
	return b
}

// trimTail drops the continuation bytes of a sequence cut at the start of
// b, when that is what they are.
func trimTail(b []byte) []byte {
	for i := 0; i < len(b) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	if len(b) < utf8.UTFMax {
		return b[len(b):] // a tail shorter than a rune, all of it the cut rune's end
	}
	return b
}

// lockedWriter serialises writes to a writer shared by two streams.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
