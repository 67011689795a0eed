package provider

import (
	"maps"
	"slices"
	"strings"
)

// combinators are the keywords the Messages API refuses at the top of an
// input schema: a tool whose schema starts with one fails the whole
// request.
var combinators = []string{"allOf", "anyOf", "oneOf"}

// flattenTop returns s with its top-level allOf, anyOf and oneOf folded
// into one object schema the Messages API accepts: the properties of every
// branch, "required" holding what every alternative requires, and the
// alternatives described in words. The tool's own schema is unchanged:
// the executor's gate still holds each call to all of it. s is not
// modified; a schema without a top-level combinator is returned as it is.
func flattenTop(s map[string]any) map[string]any {
	if !slices.ContainsFunc(combinators, func(k string) bool { _, ok := s[k]; return ok }) {
		return s
	}
	f := flattener{root: s}
	out := f.object(s, 0)
	out["type"] = "object"
	if _, ok := out["properties"]; !ok {
		out["properties"] = map[string]any{}
	}
	if len(f.notes) > 0 {
		desc, _ := out["description"].(string)
		out["description"] = strings.TrimSpace(desc + " " + strings.Join(f.notes, " "))
	}
	return out
}

type flattener struct {
	root  map[string]any
	notes []string
}

// maxFlattenDepth bounds how deep combinators within combinators are
// folded (and how far references are followed).
const maxFlattenDepth = 8

// object folds one object schema's combinators into it.
func (f *flattener) object(s map[string]any, depth int) map[string]any {
	out := maps.Clone(s)
	for _, k := range combinators {
		delete(out, k)
	}
	props, _ := out["properties"].(map[string]any)
	props = maps.Clone(props)
	if props == nil {
		props = map[string]any{}
	}
	required := names(out["required"])
	add := func(b map[string]any) {
		bp, _ := b["properties"].(map[string]any)
		for _, n := range slices.Sorted(maps.Keys(bp)) {
			if _, ok := props[n]; !ok {
				props[n] = bp[n]
			}
		}
	}
	if list, ok := anyList(s["allOf"]); ok {
		for _, raw := range list {
			b, ok := f.branch(raw, depth)
			if !ok {
				f.note("The arguments must also match a part of the schema that cannot be shown here.")
				continue
			}
			add(b)
			required = union(required, names(b["required"]))
		}
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		list, ok := anyList(s[k])
		if !ok || len(list) == 0 {
			continue
		}
		var forms []string
		var common []string
		for i, raw := range list {
			b, ok := f.branch(raw, depth)
			if !ok {
				forms = append(forms, "(a form that cannot be shown here)")
				common = nil
				continue
			}
			add(b)
			req := names(b["required"])
			if i == 0 {
				common = req
			} else {
				common = intersect(common, req)
			}
			forms = append(forms, form(b, req))
		}
		required = union(required, common)
		how := "Use at least one of these forms"
		if k == "oneOf" {
			how = "Use exactly one of these forms"
		}
		f.note(how + ": " + strings.Join(forms, " or ") + " (* marks a required parameter).")
	}
	out["properties"] = props
	if len(required) > 0 {
		out["required"] = anySlice(required)
	} else {
		delete(out, "required")
	}
	return out
}

// branch reads one branch as an object schema, following a local reference
// and folding its own combinators; false when it is not one.
func (f *flattener) branch(raw any, depth int) (map[string]any, bool) {
	if depth >= maxFlattenDepth {
		return nil, false
	}
	b, ok := raw.(map[string]any)
	if !ok {
		return nil, false
	}
	if ref, ok := b["$ref"].(string); ok {
		target, ok := f.resolve(ref)
		if !ok {
			return nil, false
		}
		return f.branch(target, depth+1)
	}
	if t, ok := b["type"]; ok && t != "object" {
		return nil, false
	}
	return f.object(b, depth+1), true
}

// resolve finds a local reference ("#/$defs/x", "#/definitions/x").
func (f *flattener) resolve(ref string) (any, bool) {
	for _, key := range []string{"$defs", "definitions"} {
		name, ok := strings.CutPrefix(ref, "#/"+key+"/")
		if !ok || strings.Contains(name, "/") {
			continue
		}
		name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
		defs, _ := f.root[key].(map[string]any)
		v, ok := defs[name]
		return v, ok
	}
	return nil, false
}

func (f *flattener) note(s string) {
	if !slices.Contains(f.notes, s) {
		f.notes = append(f.notes, s)
	}
}

// form words one alternative: (path*, recursive).
func form(b map[string]any, required []string) string {
	props, _ := b["properties"].(map[string]any)
	all := slices.Sorted(maps.Keys(props))
	for _, r := range required {
		if !slices.Contains(all, r) {
			all = append(all, r)
		}
	}
	parts := make([]string, len(all))
	for i, n := range all {
		parts[i] = n
		if slices.Contains(required, n) {
			parts[i] += "*"
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func names(v any) []string {
	list, _ := anyList(v)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func intersect(a, b []string) []string {
	var out []string
	for _, s := range a {
		if slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

func anySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
