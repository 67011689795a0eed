package bench

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/invopop/jsonschema"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/examples/quickstart/echo"
	"github.com/toolgen/toolgen/gen_test/grep"
	"github.com/toolgen/toolgen/gen_test/kitchen"
	"github.com/toolgen/toolgen/runtime/tool"
)

// TestSchemaDifferential compares every schema toolgen emits for the
// fixtures with what github.com/invopop/jsonschema reflects for the same
// struct. invopop reads constraints from `jsonschema` tags, so the struct
// is first mirrored (reflect.StructOf) with each field's tool tag written
// as the jsonschema tag that means the same (min=1 as minimum=1, enum=a|b
// as enum=a,enum=b, ...) and its doc comment, as invopop's own comment
// extraction reads it, as jsonschema_description. Both schemas are then
// normalised to JSON values, the intended differences below are removed,
// and what remains must be equal. A difference that is not in the table
// fails, and so does an entry of the table that no fixture needs any more.
func TestSchemaDifferential(t *testing.T) {
	comments := goComments(t)
	tests := []struct {
		name  string
		tool  tool.Tool
		input any
	}{
		{"echo", echo.NewEchoTool(func(context.Context, echo.EchoInput, tool.Context) (string, error) { return "", nil }), echo.EchoInput{}},
		{"grep", grep.NewGrepTool(func(context.Context, grep.GrepInput, tool.Context) (string, error) { return "", nil }), grep.GrepInput{}},
		{"kitchen", kitchen.NewKitchenTool(func(context.Context, kitchen.KitchenInput, tool.Context) (string, error) { return "", nil }), kitchen.KitchenInput{}},
		{"empty", kitchen.NewEmptyTool(func(context.Context, kitchen.Empty, tool.Context) (string, error) { return "", nil }), kitchen.Empty{}},
	}
	used := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ := reflect.TypeOf(tt.input)
			got := jsonValue(t, tt.tool.Definition().InputSchema)
			m := &mirror{t: t, comments: comments, orig: map[reflect.Type]reflect.Type{}}
			r := &jsonschema.Reflector{
				DoNotReference: true, // one tree, as toolgen emits it
				ExpandedStruct: true, // the root is the struct, not a $ref
				Anonymous:      true, // no $id
				// The default: a field without omitempty is required.
				RequiredFromJSONSchemaTags: false,
				LookupComment:              m.typeComment,
			}
			want := jsonValue(t, r.ReflectFromType(m.of(typ)))
			walk(node{t: typ, root: true, tg: got, iv: want}, used)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("schema of %s differs from invopop/jsonschema beyond the listed differences (-invopop +toolgen):\n%s", typ, diff)
			}
		})
	}
	if t.Failed() {
		return
	}
	for _, d := range differences {
		if !used[d.name] {
			t.Errorf("listed difference %q occurs in no fixture any more; remove it from the table", d.name)
		}
	}
}

// A difference is one intended way toolgen's schema differs from
// invopop's, with the reason, and the rewrite that removes it at a node.
type difference struct {
	name   string
	reason string
	// apply rewrites the pair at n and reports whether it changed anything.
	apply func(n node) bool
}

var differences = []difference{
	{
		name:   "$schema key",
		reason: "invopop names the draft at the root; tool schemas sent to model APIs carry no $schema (some providers reject unknown root keys)",
		apply:  func(n node) bool { return n.root && del(n.iv, "$schema") },
	},
	{
		name:   "root description",
		reason: "invopop describes the root by the type's doc synopsis; toolgen puts the tool's description in Definition.Description (//tool:description or the doc prose), which the model already reads beside the schema",
		apply:  func(n node) bool { return n.root && del(n.iv, "description") },
	},
	{
		name:   "struct type doc on nested schemas",
		reason: "invopop describes a nested struct schema reached without a field comment (slice items) by its type's doc synopsis; toolgen describes properties by their field comments only, so a shared type's doc does not repeat in every item",
		apply: func(n node) bool {
			return !n.root && n.field == nil && n.t.Kind() == reflect.Struct && n.tg["description"] == nil && del(n.iv, "description")
		},
	},
	{
		name:   "uint → minimum 0",
		reason: "toolgen says what the binder enforces: an unsigned field rejects negative numbers, so the schema tells the model so; invopop emits a plain integer",
		apply: func(n node) bool {
			if !isUnsigned(n.t) || n.iv["minimum"] != nil || n.tg["minimum"] != 0.0 {
				return false
			}
			n.iv["minimum"] = 0.0
			return true
		},
	},
	{
		name:   "time.Duration → string in Go's syntax",
		reason: "toolgen binds a Go duration string (\"1m30s\"), which a model writes far more reliably than encoding/json's nanosecond integer that invopop describes; JSON Schema's \"duration\" format is ISO 8601 (PT1M30S), not Go's, so no format is claimed: a pattern and the description say Go's syntax; invopop also drops the non-numeric default",
		apply: func(n node) bool {
			if n.t != durationType {
				return false
			}
			n.iv["type"] = "string"
			if d, ok := n.tg["default"]; ok && n.iv["default"] == nil {
				n.iv["default"] = d
			}
			goDurationSyntax(n)
			return true
		},
	},
	{
		name:   "format=duration → Go's syntax, not ISO 8601",
		reason: "the binder of a format=duration string reads it with time.ParseDuration; JSON Schema's \"duration\" format (which invopop copies) is ISO 8601, so toolgen states Go's syntax as a pattern and in the description instead",
		apply: func(n node) bool {
			if n.t.Kind() != reflect.String || n.iv["format"] != "duration" {
				return false
			}
			delete(n.iv, "format")
			return goDurationSyntax(n)
		},
	},
	{
		name:   "sized numbers state their range",
		reason: "the binder refuses what does not fit an int8 ... uint32 or float32; toolgen's schema says so with minimum and maximum (a tag's own bound wins), invopop states no range",
		apply: func(n node) bool {
			lo, hi, ok := sizedRange(n.t)
			if !ok {
				return false
			}
			changed := false
			if n.iv["minimum"] == nil && n.tg["minimum"] == lo {
				n.iv["minimum"] = lo
				changed = true
			}
			if n.iv["maximum"] == nil && n.tg["maximum"] == hi {
				n.iv["maximum"] = hi
				changed = true
			}
			return changed
		},
	},
	{
		name:   "clamped range in words",
		reason: "a clamp field accepts any number and the binder moves it into the range, so toolgen says the range in the description instead of minimum/maximum, which would make a validator refuse what the tool accepts",
		apply: func(n node) bool {
			if n.field == nil || !hasToolOption(n.field, "clamp") {
				return false
			}
			desc, _ := n.tg["description"].(string)
			ivDesc, _ := n.iv["description"].(string)
			if !strings.HasPrefix(desc, ivDesc) || !strings.Contains(desc[len(ivDesc):], "clamped") {
				return false
			}
			n.iv["description"] = desc
			delete(n.iv, "minimum")
			delete(n.iv, "maximum")
			return true
		},
	},
	{
		name:   "//tool:enum named types list their constants",
		reason: "toolgen finds the values of a //tool:enum string type from its declared constants through type information; reflection cannot see constants, so invopop has no enum",
		apply: func(n node) bool {
			if n.t.Kind() != reflect.String || n.t.Name() == "" || n.t.PkgPath() == "" || n.tg["enum"] == nil || n.iv["enum"] != nil {
				return false
			}
			n.iv["enum"] = n.tg["enum"]
			return true
		},
	},
	{
		name:   "map value constraints",
		reason: "toolgen applies a map field's tag constraints (pattern, min, ...) to its values, as it does for slice elements; invopop reads no keywords for an object-typed field, so its additionalProperties schema is bare",
		apply: func(n node) bool {
			if n.field == nil || n.t.Kind() != reflect.Map {
				return false
			}
			tgv, _ := n.tg["additionalProperties"].(map[string]any)
			ivv, _ := n.iv["additionalProperties"].(map[string]any)
			if tgv == nil || ivv == nil {
				return false
			}
			changed := false
			for _, k := range []string{"pattern", "format", "minimum", "maximum", "minLength", "maxLength"} {
				if v, ok := tgv[k]; ok && ivv[k] == nil {
					ivv[k] = v
					changed = true
				}
			}
			return changed
		},
	},
	{
		name:   "fields of an anonymous struct have descriptions",
		reason: "toolgen reads every field's doc comment from the syntax; invopop's comment map is keyed by named type and field name, so a field of an unnamed struct type has no key of its own",
		apply: func(n node) bool {
			if n.owner == nil || n.owner.Name() != "" || n.tg["description"] == nil || n.iv["description"] != nil {
				return false
			}
			n.iv["description"] = n.tg["description"]
			return true
		},
	},
}

var durationType = reflect.TypeFor[time.Duration]()

// goDurationSyntax removes, at a duration node, what toolgen adds to say
// Go's syntax: the pattern, written here independently of the generator,
// and the sentence ending the description.
func goDurationSyntax(n node) bool {
	const pattern = `^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`
	const hint = "A Go duration such as 1m30s or 250ms."
	if n.tg["pattern"] != pattern {
		return false
	}
	n.iv["pattern"] = pattern
	if d, _ := n.iv["description"].(string); strings.TrimSpace(d+" "+hint) == n.tg["description"] {
		n.iv["description"] = n.tg["description"]
	}
	return true
}

// sizedRange returns the range of a sized numeric kind, as JSON numbers.
func sizedRange(t reflect.Type) (lo, hi float64, ok bool) {
	switch t.Kind() {
	case reflect.Int8, reflect.Int16, reflect.Int32:
		bits := t.Bits()
		return -math.Pow(2, float64(bits-1)), math.Pow(2, float64(bits-1)) - 1, true
	case reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return 0, math.Pow(2, float64(t.Bits())) - 1, true
	case reflect.Float32:
		return -math.MaxFloat32, math.MaxFloat32, true
	}
	return 0, 0, false
}

func isUnsigned(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// del deletes key from m and reports whether it was there.
func del(m map[string]any, key string) bool {
	_, ok := m[key]
	delete(m, key)
	return ok
}

// A node is one schema position in both trees, with the Go type it
// describes.
type node struct {
	t     reflect.Type
	root  bool
	field *reflect.StructField // the field the node is a property for, if any
	owner reflect.Type         // the struct type that declares field
	tg    map[string]any       // toolgen's schema
	iv    map[string]any       // invopop's schema
}

// walk applies the differences at n and below.
func walk(n node, used map[string]bool) {
	for n.t.Kind() == reflect.Pointer {
		n.t = n.t.Elem()
	}
	for _, d := range differences {
		if d.apply(n) {
			used[d.name] = true
		}
	}
	child := func(key string, t reflect.Type) {
		tg, _ := n.tg[key].(map[string]any)
		iv, _ := n.iv[key].(map[string]any)
		if tg != nil && iv != nil {
			walk(node{t: t, tg: tg, iv: iv}, used)
		}
	}
	switch n.t.Kind() {
	case reflect.Struct:
		tgp, _ := n.tg["properties"].(map[string]any)
		ivp, _ := n.iv["properties"].(map[string]any)
		for _, f := range wireFields(n.t) {
			tg, _ := tgp[f.wire].(map[string]any)
			iv, _ := ivp[f.wire].(map[string]any)
			if tg != nil && iv != nil {
				walk(node{t: f.Type, field: &f.StructField, owner: f.owner, tg: tg, iv: iv}, used)
			}
		}
	case reflect.Slice, reflect.Array:
		child("items", n.t.Elem())
	case reflect.Map:
		child("additionalProperties", n.t.Elem())
	}
}

// A wireField is a field as encoding/json sees it: embedded structs
// promoted, with its wire name and the struct that declares it.
type wireField struct {
	reflect.StructField
	wire  string
	owner reflect.Type
}

func wireFields(t reflect.Type) []wireField {
	var out []wireField
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, wireFields(f.Type)...)
			continue
		}
		if !f.IsExported() || name == "" {
			continue
		}
		out = append(out, wireField{StructField: f, wire: name, owner: t})
	}
	return out
}

// A mirror builds, for a fixture type, a type invopop can read: the same
// shape and json tags, with each tool tag rewritten as a jsonschema tag
// and each field's doc comment as jsonschema_description.
type mirror struct {
	t        *testing.T
	comments map[string]string             // invopop's comment map of gen_test
	orig     map[reflect.Type]reflect.Type // mirrored struct → fixture struct
}

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

func (m *mirror) of(t reflect.Type) reflect.Type {
	switch t.Kind() {
	case reflect.Pointer:
		if e := m.of(t.Elem()); e != t.Elem() {
			return reflect.PointerTo(e)
		}
	case reflect.Slice:
		if e := m.of(t.Elem()); t != rawType && e != t.Elem() {
			return reflect.SliceOf(e)
		}
	case reflect.Array:
		if e := m.of(t.Elem()); e != t.Elem() {
			return reflect.ArrayOf(t.Len(), e)
		}
	case reflect.Map:
		if e := m.of(t.Elem()); e != t.Elem() {
			return reflect.MapOf(t.Key(), e)
		}
	case reflect.Struct:
		if t == timeType {
			return t
		}
		var fields []reflect.StructField
		for _, f := range wireFields(t) {
			fields = append(fields, reflect.StructField{Name: f.Name, Type: m.of(f.Type), Tag: m.tag(f)})
		}
		s := reflect.StructOf(fields)
		m.orig[s] = t
		return s
	}
	return t
}

// tag writes a field's tags for invopop.
func (m *mirror) tag(f wireField) reflect.StructTag {
	tag := `json:` + strconv.Quote(f.Tag.Get("json"))
	if js := jsonschemaTag(m.t, f); js != "" {
		tag += ` jsonschema:` + strconv.Quote(js)
	}
	if f.owner.Name() != "" {
		if c := m.comments[f.owner.PkgPath()+"."+f.owner.Name()+"."+f.Name]; c != "" {
			tag += ` jsonschema_description:` + strconv.Quote(c)
		}
	}
	return reflect.StructTag(tag)
}

// typeComment gives invopop the doc synopsis of the fixture type a
// mirrored struct stands for.
func (m *mirror) typeComment(t reflect.Type, field string) string {
	o, ok := m.orig[t]
	if !ok || field != "" || o.Name() == "" {
		return ""
	}
	return m.comments[o.PkgPath()+"."+o.Name()]
}

// jsonschemaTag rewrites a tool tag in invopop's vocabulary. It reads the
// tag itself, by the grammar annotations/doc.go documents, and not with
// toolgen's parser, so that a parser bug (a bound off by one, a quote read
// wrong) shows as a difference instead of passing on both sides. required
// is left out: invopop requires a field without omitempty, and the
// fixtures mark exactly those fields required. clamp is the binder's
// business.
func jsonschemaTag(t *testing.T, f wireField) string {
	raw, ok := f.Tag.Lookup(annotations.TagKey)
	if !ok {
		return ""
	}
	esc := func(s string) string { return strings.ReplaceAll(s, ",", `\,`) }
	var parts []string
	for _, opt := range splitToolTag(t, raw) {
		key, val, _ := strings.Cut(opt, "=")
		switch key {
		case "required", "clamp":
		case "enum":
			for _, e := range strings.Split(val, "|") {
				parts = append(parts, "enum="+esc(e))
			}
		case "default", "pattern", "format":
			parts = append(parts, key+"="+esc(val))
		case "min", "max":
			parts = append(parts, map[string]string{"min": "minimum", "max": "maximum"}[key]+"="+val)
		case "minlen", "maxlen", "minitems", "maxitems":
			if _, err := strconv.Atoi(val); err != nil {
				t.Fatalf("%s: %s=%q is not a number", f.Name, key, val)
			}
			name := map[string]string{"minlen": "minLength", "maxlen": "maxLength", "minitems": "minItems", "maxitems": "maxItems"}[key]
			parts = append(parts, name+"="+val)
		default:
			t.Fatalf("%s: tool tag option %q is not in the documented grammar", f.Name, key)
		}
	}
	return strings.Join(parts, ",")
}

// splitToolTag splits a tool tag at its commas: a value in single quotes
// holds commas, and two single quotes inside stand for one.
func splitToolTag(t *testing.T, raw string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case quoted && c == '\'' && i+1 < len(raw) && raw[i+1] == '\'':
			cur.WriteByte('\'')
			i++
		case c == '\'':
			quoted = !quoted
		case c == ',' && !quoted:
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	if quoted {
		t.Fatalf("tool tag %q: unterminated quote", raw)
	}
	return append(out, cur.String())
}

// goComments reads gen_test's doc comments the way invopop does (the
// directories walked are joined to the base: ".." from this module is
// gen_test).
func goComments(t *testing.T) map[string]string {
	t.Helper()
	r := &jsonschema.Reflector{}
	if err := r.AddGoComments("github.com/toolgen/toolgen/gen_test/bench", ".."); err != nil {
		t.Fatal(err)
	}
	// The Echo fixture is the quickstart's own package (invopop joins the
	// base with the directory walked).
	if err := r.AddGoComments("github.com/toolgen/toolgen/gen_test/bench", "../../examples/quickstart/echo"); err != nil {
		t.Fatal(err)
	}
	return r.CommentMap
}

// jsonValue normalises v to what encoding/json decodes its encoding to, so
// that []string and []any, 1 and 1.0 compare equal.
func jsonValue(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// hasToolOption reports whether the field's tool tag holds the bare option
// name (such as clamp).
func hasToolOption(f *reflect.StructField, name string) bool {
	for _, opt := range strings.Split(f.Tag.Get(annotations.TagKey), ",") {
		if strings.TrimSpace(opt) == name {
			return true
		}
	}
	return false
}
