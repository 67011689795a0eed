package toolimpl

import (
	"github.com/toolgen/toolgen/runtime/jsonscan"
	"github.com/toolgen/toolgen/runtime/schema"
)

// Slice binds the array v at key, each item with elem.
func Slice[T any](b *Binder, v Value, key string, elem Elem[T]) []T {
	return SliceLen(b, v, key, 0, -1, elem)
}

// SliceLen is Slice for an array of at least min and, unless max is
// negative, at most max items.
func SliceLen[T any](b *Binder, v Value, key string, min, max int, elem Elem[T]) []T {
	if absent(v) {
		return nil
	}
	if v.Kind() != jsonscan.Array {
		b.report(schema.WrongType(b.at(key), "array"))
		return nil
	}
	n := v.Len()
	switch {
	case n < min:
		b.report(schema.TooFewItems(b.at(key), min))
		return nil
	case max >= 0 && n > max:
		b.report(schema.TooManyItems(b.at(key), max))
		return nil
	}
	out := make([]T, n)
	items(b, v, key, out, elem)
	return out
}

// items binds each item of the array v, at key, into out, with the item's
// index as the current position.
func items[T any](b *Binder, v Value, key string, out []T, elem Elem[T]) {
	b.push(segment{key: key})
	b.push(segment{isIdx: true})
	i := 0
	for it := v.Items(); it.Next(); i++ {
		b.setIndex(i)
		out[i] = elem(b, it.Value(), "")
	}
	b.pop()
	b.pop()
}

// Array binds the array v at key, which must have exactly n items, each
// bound with elem. It returns n items whatever v holds, so that generated
// code converts the slice to its array type ([3]int(...)).
func Array[T any](b *Binder, v Value, key string, n int, elem Elem[T]) []T {
	out := make([]T, n)
	if absent(v) {
		return out
	}
	if v.Kind() != jsonscan.Array {
		b.report(schema.WrongType(b.at(key), "array"))
		return out
	}
	switch l := v.Len(); {
	case l < n:
		b.report(schema.TooFewItems(b.at(key), n))
		return out
	case l > n:
		b.report(schema.TooManyItems(b.at(key), n))
		return out
	}
	items(b, v, key, out, elem)
	return out
}

// Map binds the object v at key as a map with keys of type K, each member
// bound with elem, in key order.
func Map[K ~string, T any](b *Binder, v Value, key string, elem Elem[T]) map[K]T {
	if absent(v) {
		return nil
	}
	if v.Kind() != jsonscan.Object {
		b.report(schema.WrongType(b.at(key), "object"))
		return nil
	}
	members := v.SortedMembers()
	out := make(map[K]T, len(members))
	b.push(segment{key: key})
	for _, m := range members {
		b.push(segment{key: m.Key, member: true})
		out[K(m.Key)] = elem(b, m.Value, "")
		b.pop()
	}
	b.pop()
	return out
}
