package builtin

import (
	"slices"
)

// ring is a byte queue of at most max bytes, kept in chunks of its store,
// that drops its oldest bytes to make room. It holds the bytes from head
// in chunks[0] on; every chunk but the last is full.
type ring struct {
	max    int
	store  *outStore
	chunks [][]byte
	head   int // offset of the oldest byte in chunks[0]
	size   int // bytes held
	total  int64
}

// write appends p, dropping the oldest bytes beyond max, and returns how
// many bytes it dropped for max. Getting a chunk may make the store
// reclaim one, from this ring or another; the reclaimer counts those
// bytes, on the task it took them from.
func (r *ring) write(p []byte) (dropped int) {
	if len(p) == 0 {
		return 0
	}
	r.total += int64(len(p))
	if len(p) >= r.max {
		dropped = r.size + len(p) - r.max
		p = p[len(p)-r.max:]
		r.discard(r.size)
	} else if over := r.size + len(p) - r.max; over > 0 {
		r.discard(over)
		dropped = over
	}
	for len(p) > 0 {
		end := r.head + r.size // offset past the last byte, from chunks[0]
		if end == len(r.chunks)*r.store.chunk {
			c := r.store.get() // may drop this ring's oldest chunk
			r.chunks = append(r.chunks, c)
			end = r.head + r.size
		}
		last := r.chunks[len(r.chunks)-1]
		n := copy(last[end-(len(r.chunks)-1)*r.store.chunk:], p)
		r.size += n
		p = p[n:]
	}
	return dropped
}

// copyTo copies the held bytes, oldest first, into dst, as many as fit.
func (r *ring) copyTo(dst []byte) int {
	n, off := 0, r.head
	left := min(r.size, len(dst))
	for _, c := range r.chunks {
		if left == 0 {
			break
		}
		k := copy(dst[n:], c[off:min(len(c), off+left)])
		n += k
		left -= k
		off = 0
	}
	return n
}

// bytes returns a copy of the held bytes, oldest first.
func (r *ring) bytes() []byte {
	return r.prefix(r.size)
}

// prefix returns a copy of the n oldest bytes held (all of them when
// fewer are).
func (r *ring) prefix(n int) []byte {
	out := make([]byte, min(n, r.size))
	r.copyTo(out)
	return out
}

// contains reports whether the held bytes contain b.
func (r *ring) contains(b byte) bool {
	off, left := r.head, r.size
	for _, c := range r.chunks {
		if left == 0 {
			break
		}
		seg := c[off:min(len(c), off+left)]
		if slices.Contains(seg, b) {
			return true
		}
		left -= len(seg)
		off = 0
	}
	return false
}

// discard drops the n oldest bytes, giving emptied chunks back to the
// store. An empty ring holds no chunk.
func (r *ring) discard(n int) {
	n = min(n, r.size)
	r.head += n
	r.size -= n
	if r.size == 0 {
		for _, c := range r.chunks {
			r.store.put(c)
		}
		r.chunks, r.head = nil, 0
		return
	}
	for r.head >= r.store.chunk {
		r.store.put(r.chunks[0])
		r.chunks[0] = nil
		r.chunks = r.chunks[1:]
		r.head -= r.store.chunk
	}
}

// dropChunk drops the bytes held in the oldest chunk, giving it back to
// the store, and returns how many bytes were dropped.
func (r *ring) dropChunk() int {
	if len(r.chunks) == 0 {
		return 0
	}
	n := min(r.size, r.store.chunk-r.head)
	r.discard(n)
	return n
}
