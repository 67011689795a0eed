// Package jsonscan reads the JSON arguments of a tool call without
// decoding them into a map: the scanner behind the binders that toolgen
// generates (through runtime/toolimpl) and behind [tool.DecodeInput].
//
// WARNING: the reading API (Doc, Value, Members, Items) exists for generated
// code and the runtime. It may change with the generator; call the
// generated binders instead.
//
// # Checking and reading
//
// [Validate] (or [Parse], which also returns the [Doc]) checks the whole
// text once: RFC 8259 syntax, strictly; one JSON object at the top level;
// at most [MaxDepth] levels of nesting and [MaxBytes] bytes; every number
// within the range of a float64, as encoding/json requires; and no object
// with the same key twice, at any depth. It does not allocate for valid
// text. Reading a validated Doc then never fails on syntax: a [Value] is a
// position in the text, read as the type a binder asks for.
//
// [ValidateSpans] checks the text as Validate does and records where each
// member of the top-level object is (a [Span]); a Doc made with [Indexed]
// then finds its top-level members from the spans, without scanning the
// text again ([Value.Locate]). This is how tool.DecodeInput keeps the
// bytes it checks, so that a generated binder reads them in one pass.
//
// # What reading agrees with
//
// Reading a Value gives what encoding/json decoding the same text into an
// `any` and then reading the decoded value with the runtime/tool coercions
// gives, with one intended difference: an integer written without a
// fraction or exponent is read exactly, so 9007199254740993 stays itself
// instead of becoming the nearest float64. Strings are unescaped as
// encoding/json unescapes them: surrogate pairs are joined, and lone
// surrogates and invalid UTF-8 bytes become U+FFFD. A numeric string ("10")
// reads as a number unless the Doc is strict ([Unchecked] with strict set),
// which is how the executor keeps the schema gate's rule under
// schema.Enforce.
//
// # Duplicate keys
//
// JSON leaves duplicate keys to the implementation, and implementations
// differ (encoding/json keeps the last one). So that no layer can see
// another value than another layer, a duplicate key is never resolved: it
// is reported as a schema.DuplicateKey violation at its path
// ("edits[1].old_string"), by Validate, and therefore by tool.DecodeInput
// and by every generated binder.
package jsonscan
