package jsonscan

import (
	"unicode/utf8"
)

// keySet finds duplicate keys in one object: a 64-bit filter over a cheap
// hash, the spans of the first keys, and a map once there are many.
type keySet struct {
	filter  uint64
	escaped bool // a key with escapes was added: compare every key
	n       int
	spans   [16][2]int32
	hashes  [16]uint8 // each key's bit in filter
	many    map[string]struct{}
}

// add reports whether the key span (quotes included, with escapes or not)
// was already added. A plain key (no escapes, ASCII) whose hash is new is
// added at once: most keys are.
func (k *keySet) add(data []byte, start, end int, escaped bool) bool {
	if !escaped && !k.escaped && k.n < len(k.spans) {
		hash := plainHash(data, start, end)
		if k.filter&(1<<hash) == 0 {
			k.filter |= 1 << hash
			k.spans[k.n] = [2]int32{int32(start), int32(end)}
			k.hashes[k.n] = hash
			k.n++
			return false
		}
	}
	return k.addSlow(data, start, end, escaped)
}

// plainHash is the six-bit hash of the plain key span data[start:end]
// (quotes included): its length and its first and last bytes, mixed by a
// multiplicative hash whose top bits it keeps.
func plainHash(data []byte, start, end int) uint8 {
	h := uint64(end-start) | uint64(data[start+1])<<16 | uint64(data[end-2])<<24
	return uint8(h * 0x9e3779b97f4a7c15 >> 58)
}

// addSlow is add for a key with escapes, a key whose hash is taken, or
// one beyond the spans' room.
func (k *keySet) addSlow(data []byte, start, end int, escaped bool) bool {
	if k.many != nil {
		key := unquote(data[start:end])
		if _, ok := k.many[key]; ok {
			return true
		}
		k.many[key] = struct{}{}
		return false
	}
	var bit uint64
	var hash uint8
	if escaped {
		k.escaped = true // an escaped key is compared with every other
	} else {
		hash = plainHash(data, start, end)
		bit = 1 << hash
	}
	switch {
	case k.escaped:
		for _, sp := range k.spans[:k.n] {
			if sameKey(data[sp[0]:sp[1]], data[start:end]) {
				return true
			}
		}
	case k.filter&bit != 0:
		// Neither key has escapes or bytes beyond ASCII: the same text is
		// the same bytes.
		for i, sp := range k.spans[:k.n] {
			if k.hashes[i] == hash && string(data[sp[0]:sp[1]]) == string(data[start:end]) {
				return true
			}
		}
	}
	if k.n == len(k.spans) {
		k.many = make(map[string]struct{}, 2*len(k.spans))
		for _, sp := range k.spans {
			k.many[unquote(data[sp[0]:sp[1]])] = struct{}{}
		}
		k.many[unquote(data[start:end])] = struct{}{}
		return false
	}
	k.filter |= bit
	k.spans[k.n] = [2]int32{int32(start), int32(end)}
	k.hashes[k.n] = hash
	k.n++
	return false
}

// sameKey compares two quoted keys by their unescaped text.
func sameKey(a, b []byte) bool {
	if string(a) == string(b) {
		return true
	}
	for _, q := range [][]byte{a, b} {
		for _, c := range q {
			if c == '\\' || c >= utf8.RuneSelf {
				return unquote(a) == unquote(b)
			}
		}
	}
	return false
}
