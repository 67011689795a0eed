package toolimpl

import (
	"slices"
	"strings"
)

// Keys returns the property names of the object schema at path in schema,
// sorted: the wire names of a struct's fields, read from the schema the
// model is shown, so that a generated file writes each name once. path is
// followed key by key from schema's root ("properties", "lines" for the
// object of the property lines; "properties", "edits", "items" for the
// objects of a list). A generated binder locates its fields with these
// keys ([Binder.Locate], [Binder.Enter]) and reads field i, the i'th name
// in this order, with [Binder.Field].
//
// Keys panics when path does not lead to an object schema with
// properties; generated code, its only caller, runs it when its package is
// initialised.
func Keys(schema map[string]any, path ...string) []string {
	m := schema
	for i, k := range path {
		next, ok := m[k].(map[string]any)
		if !ok {
			panic("toolimpl.Keys: no schema at " + strings.Join(path[:i+1], "."))
		}
		m = next
	}
	props, ok := m["properties"].(map[string]any)
	if !ok {
		panic("toolimpl.Keys: no properties at " + strings.Join(append(path[:len(path):len(path)], "properties"), "."))
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
