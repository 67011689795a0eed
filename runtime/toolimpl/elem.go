package toolimpl

// An Elem binds one value v at key below b's current position: an element
// of a list or map (key is empty for a list's item, whose index is the
// position), or an optional or defaulted field ([Optional], [Default]). A
// nested struct's generated helper is one, and so is a helper that takes
// nothing more, instantiated ([Int], [Float], [Bool], [Raw]: Int[int]);
// [ElemWith] and [ElemWithin] make one of a helper that takes a rule or
// bounds.
type Elem[T any] func(b *Binder, v Value, key string) T

// ElemWith returns the Elem that binds with f and arg: a string helper
// and its rule, ElemWith(String[string], rule), or Time and its rule.
func ElemWith[T, A any](f func(b *Binder, v Value, key string, arg A) T, arg A) Elem[T] {
	return func(b *Binder, v Value, key string) T { return f(b, v, key, arg) }
}

// ElemWithin returns the Elem that binds with f within lo and hi:
// ElemWithin(IntIn[int], 1, 10), ElemWithin(FloatClamp[float64], 0, 1).
func ElemWithin[T, N any](f func(b *Binder, v Value, key string, lo, hi N) T, lo, hi N) Elem[T] {
	return func(b *Binder, v Value, key string) T { return f(b, v, key, lo, hi) }
}

// Optional binds the field v at key, of a pointer type: nil when v is
// absent or null, otherwise a pointer to the value elem binds.
func Optional[T any](b *Binder, v Value, key string, elem Elem[T]) *T {
	if !v.Present() {
		return nil
	}
	x := elem(b, v, key)
	return &x
}

// Default binds the field v at key with elem, or returns def when v is
// absent or null.
func Default[T any](b *Binder, v Value, key string, def T, elem Elem[T]) T {
	if !v.Present() {
		return def
	}
	return elem(b, v, key)
}
