package emit

import (
	"bytes"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/internal/model"
)

// Types of the fields in the tests below, as load builds them.
func named(path, pkg, name string) *model.TypeExpr {
	return &model.TypeExpr{Kind: model.ExprNamed, Path: path, Pkg: pkg, Name: name}
}

var (
	stringT   = &model.Type{Kind: model.String, Go: named("", "", "string")}
	boolT     = &model.Type{Kind: model.Bool, Go: named("", "", "bool")}
	intT      = &model.Type{Kind: model.Int, Go: named("", "", "int")}
	uint8T    = &model.Type{Kind: model.Uint, Bits: 8, Go: named("", "", "uint8")}
	float64T  = &model.Type{Kind: model.Float, Bits: 64, Go: named("", "", "float64")}
	timeT     = &model.Type{Kind: model.Time, Go: named("time", "time", "Time")}
	durationT = &model.Type{Kind: model.Duration, Go: named("time", "time", "Duration")}
	// A named time type is converted: its elements need a literal.
	stampT = &model.Type{Kind: model.Time, Go: named("", "", "Stamp")}
)

func pointer(t *model.Type) *model.Type {
	return &model.Type{Kind: model.Pointer, Elem: t, Go: &model.TypeExpr{Kind: model.ExprPointer, Elem: t.Go}}
}

func slice(t *model.Type) *model.Type {
	return &model.Type{Kind: model.Slice, Elem: t, Go: &model.TypeExpr{Kind: model.ExprSlice, Elem: t.Go}}
}

func mapOf(t *model.Type) *model.Type {
	key := named("", "", "string")
	return &model.Type{Kind: model.Map, Elem: t, KeyType: key, Go: &model.TypeExpr{Kind: model.ExprMap, Key: key, Elem: t.Go}}
}

// structT is the named struct type Range{Start, End int} of the package.
func structT() *model.Type {
	return &model.Type{Kind: model.Struct, Key: "p.Range", Go: named("", "", "Range"), Fields: []*model.Field{
		{GoPath: []string{"Start"}, Wire: "start", Type: intT, Required: true},
		{GoPath: []string{"End"}, Wire: "end", Type: intT},
	}}
}

func field(wire string, t *model.Type) *model.Field {
	return &model.Field{GoPath: []string{strings.ToUpper(wire[:1]) + wire[1:]}, Wire: wire, Type: t}
}

func ptr[T any](v T) *T { return &v }

// render emits a package of one file declaring one tool, In, with fields.
func render(t *testing.T, fields ...*model.Field) string {
	t.Helper()
	tl := &model.Tool{Name: "In", TypeName: "InInput", Fields: fields}
	return renderTools(t, tl)
}

func renderTools(t *testing.T, tools ...*model.Tool) string {
	t.Helper()
	pkg := &model.Package{Path: "example.com/p", Name: "p", Files: []*model.File{{
		Source: "p.go", Generated: "p_toolgen.go", Package: "p", Tools: tools,
	}}}
	files, err := Package(pkg)
	if err != nil {
		t.Fatal(err)
	}
	return string(files["p_toolgen.go"])
}

// decl returns the printed top-level declaration of src that declares
// name, "" when there is none.
func decl(t *testing.T, src, name string) string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("generated code does not parse: %v\n%s", err, src)
	}
	for _, d := range f.Decls {
		var names []string
		switch d := d.(type) {
		case *ast.FuncDecl:
			names = append(names, d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok {
					for _, id := range vs.Names {
						names = append(names, id.Name)
					}
				}
			}
		}
		for _, n := range names {
			if n == name {
				var b bytes.Buffer
				if err := format.Node(&b, fset, d); err != nil {
					t.Fatal(err)
				}
				return b.String()
			}
		}
	}
	return ""
}

// bodyLines returns the statements of BindInInput between Locate and
// Done: the fields' bindings.
func bodyLines(t *testing.T, src string) []string {
	t.Helper()
	fn := decl(t, src, "BindInInput")
	var out []string
	in := false
	for _, line := range strings.Split(fn, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "b.Locate("):
			in = true
		case strings.HasPrefix(line, "return toolimpl.Done("):
			in = false
		case in:
			out = append(out, line)
		}
	}
	return out
}

// TestFieldBinding: each kind of field is bound by one call to a toolimpl
// helper, its elements (and an optional or defaulted value) by a shared
// element binder, and b.Field reads it by its index among the sorted wire
// names.
func TestFieldBinding(t *testing.T) {
	withC := func(f *model.Field, c model.Constraints) *model.Field { f.Constraints = c; return f }
	required := func(f *model.Field) *model.Field { f.Required = true; return f }
	withDefault := func(f *model.Field, d any) *model.Field { f.Default = d; return f }
	bound := func(text string) *model.Number { return &model.Number{Text: text} }
	tests := []struct {
		name   string
		fields []*model.Field
		want   []string
	}{
		{"string", []*model.Field{field("a", stringT)},
			[]string{`out.A = toolimpl.String[string](&b, b.Field(0), "a", nil)`}},
		{"required string with a rule", []*model.Field{required(withC(field("a", stringT), model.Constraints{MinLen: ptr(1)}))},
			[]string{`out.A = toolimpl.String[string](&b, b.RequiredField(0, "a", "string"), "a", inInputARule)`}},
		{"required named time: converted", []*model.Field{required(field("at", stampT))},
			[]string{`out.At = Stamp(toolimpl.Time(&b, b.RequiredField(0, "at", "string"), "at", nil))`}},
		{"fields by sorted wire name", []*model.Field{field("zeta", stringT), field("alpha", boolT)},
			[]string{
				`out.Zeta = toolimpl.String[string](&b, b.Field(1), "zeta", nil)`,
				`out.Alpha = toolimpl.Bool[bool](&b, b.Field(0), "alpha")`,
			}},
		{"integer in a range", []*model.Field{withC(field("n", intT), model.Constraints{Min: bound("1"), Max: bound("10")})},
			[]string{`out.N = toolimpl.IntIn[int](&b, b.Field(0), "n", 1, 10)`}},
		{"integer with a minimum only", []*model.Field{withC(field("n", intT), model.Constraints{Min: bound("1")})},
			[]string{`out.N = toolimpl.IntIn[int](&b, b.Field(0), "n", 1, math.MaxInt)`}},
		{"clamped uint8", []*model.Field{withC(field("n", uint8T), model.Constraints{Max: bound("9"), Clamp: true})},
			[]string{`out.N = toolimpl.IntClamp[uint8](&b, b.Field(0), "n", 0, 9)`}},
		{"float in a range", []*model.Field{withC(field("r", float64T), model.Constraints{Min: bound("0"), Max: bound("1")})},
			[]string{`out.R = toolimpl.FloatIn[float64](&b, b.Field(0), "r", 0.0, 1.0)`}},
		{"enum with a default", []*model.Field{withDefault(withC(field("mode", stringT), model.Constraints{Enum: []string{"a", "b"}}), "b")},
			[]string{`out.Mode = toolimpl.Default(&b, b.Field(0), "mode", "b", toolimpl.ElemWith(toolimpl.String[string], inInputModeRule))`}},
		{"bool with a default", []*model.Field{withDefault(field("on", boolT), true)},
			[]string{`out.On = toolimpl.Default(&b, b.Field(0), "on", true, toolimpl.Bool[bool])`}},
		{"clamped integer with a default", []*model.Field{withDefault(withC(field("n", intT), model.Constraints{Min: bound("1"), Max: bound("5"), Clamp: true}), int64(3))},
			[]string{`out.N = toolimpl.Default(&b, b.Field(0), "n", 3, toolimpl.ElemWithin(toolimpl.IntClamp[int], 1, 5))`}},
		{"duration with a default", []*model.Field{withDefault(field("wait", durationT), "90s")},
			[]string{`out.Wait = toolimpl.Default(&b, b.Field(0), "wait", 90*time.Second, toolimpl.ElemWith(toolimpl.Duration, nil))`}},
		{"list with a size and item rules", []*model.Field{withC(field("tags", slice(stringT)), model.Constraints{MaxItems: ptr(8), Pattern: "^[a-z]+$"})},
			[]string{`out.Tags = toolimpl.SliceLen(&b, b.Field(0), "tags", 0, 8, toolimpl.ElemWith(toolimpl.String[string], inInputTagsRule))`}},
		{"map of integers", []*model.Field{field("env", mapOf(intT))},
			[]string{`out.Env = toolimpl.Map[string](&b, b.Field(0), "env", toolimpl.Int[int])`}},
		{"map of bounded integers", []*model.Field{withC(field("env", mapOf(intT)), model.Constraints{Min: bound("0")})},
			[]string{`out.Env = toolimpl.Map[string](&b, b.Field(0), "env", toolimpl.ElemWithin(toolimpl.IntIn[int], 0, math.MaxInt))`}},
		{"optional integer", []*model.Field{field("limit", pointer(intT))},
			[]string{`out.Limit = toolimpl.Optional(&b, b.Field(0), "limit", toolimpl.Int[int])`}},
		{"optional time", []*model.Field{field("due", pointer(timeT))},
			[]string{`out.Due = toolimpl.Optional(&b, b.Field(0), "due", toolimpl.ElemWith(toolimpl.Time, nil))`}},
		{"optional struct", []*model.Field{field("lines", pointer(structT()))},
			[]string{`out.Lines = toolimpl.Optional(&b, b.Field(0), "lines", bindInInputRange)`}},
		{"list of structs", []*model.Field{field("ranges", slice(structT()))},
			[]string{`out.Ranges = toolimpl.Slice(&b, b.Field(0), "ranges", bindInInputRange)`}},
		{"list of pointers: a literal", []*model.Field{field("ns", slice(pointer(intT)))},
			[]string{
				`out.Ns = toolimpl.Slice(&b, b.Field(0), "ns", func(b *toolimpl.Binder, v toolimpl.Value, key string) *int {`,
				`return new(toolimpl.Int[int](b, v, key))`,
				`})`,
			}},
		{"optional named time type: the old form", []*model.Field{field("at", pointer(stampT))},
			[]string{
				`if v := b.Field(0); v.Present() {`,
				`out.At = new(Stamp(toolimpl.Time(&b, v, "at", nil)))`,
				`}`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := bodyLines(t, render(t, tt.fields...))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("binding (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTables: the binder's wire names come from the schema, each struct's
// at its place in it, and its string rules are one line each.
func TestTables(t *testing.T) {
	tests := []struct {
		name   string
		fields []*model.Field
		want   string // the declaration of inInputKeys
	}{
		{"flat", []*model.Field{field("a", stringT)},
			"var inInputKeys = toolimpl.Keys(inInputSchema)"},
		{"a struct behind a pointer", []*model.Field{field("lines", pointer(structT()))},
			"var (\n\tinInputKeys      = toolimpl.Keys(inInputSchema)\n\tinInputRangeKeys = toolimpl.Keys(inInputSchema, \"properties\", \"lines\")\n)"},
		{"structs in a list and in a map", []*model.Field{field("ranges", slice(structT())), field("byName", mapOf(&model.Type{Kind: model.Struct, Key: "p.Pair", Go: named("", "", "Pair"), Fields: []*model.Field{field("x", intT)}}))},
			"var (\n\tinInputKeys      = toolimpl.Keys(inInputSchema)\n\tinInputRangeKeys = toolimpl.Keys(inInputSchema, \"properties\", \"ranges\", \"items\")\n\tinInputPairKeys  = toolimpl.Keys(inInputSchema, \"properties\", \"byName\", \"additionalProperties\")\n)"},
		{"rules after the keys", []*model.Field{
			{GoPath: []string{"Name"}, Wire: "name", Type: stringT, Constraints: model.Constraints{MinLen: ptr(1), MaxLen: ptr(40)}},
			{GoPath: []string{"Alias"}, Wire: "alias", Type: stringT, Constraints: model.Constraints{MinLen: ptr(1), MaxLen: ptr(40)}},
			{GoPath: []string{"ID"}, Wire: "id", Type: stringT, Constraints: model.Constraints{Format: "uuid"}},
		},
			"var (\n\tinInputKeys     = toolimpl.Keys(inInputSchema)\n\tinInputNameRule = &toolimpl.StringRule{MinLen: new(1), MaxLen: new(40)}\n\tinInputIDRule   = &toolimpl.StringRule{Format: \"uuid\"}\n)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, decl(t, render(t, tt.fields...), "inInputKeys")); diff != "" {
				t.Errorf("tables (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFileShape: one version guard per file, before the tools; one guard
// per tool, whose consecutive fields of one type share a line; every
// comment one line.
func TestFileShape(t *testing.T) {
	a := &model.Tool{Name: "A", TypeName: "AInput", Fields: []*model.Field{field("x", stringT)}, Guards: []model.Guard{{
		Type: named("", "", "AInput"),
		Fields: []model.GuardField{
			{Name: "X", Type: named("", "", "string")}, {Name: "Y", Type: named("", "", "string")},
			{Name: "N", Type: named("", "", "int")}, {Name: "Base", Embedded: true, Type: named("", "", "Base")},
			{Name: "M", Type: named("", "", "int")},
		},
	}}}
	b := &model.Tool{Name: "B", TypeName: "BInput", Guards: []model.Guard{{Type: named("", "", "BInput")}}}
	src := renderTools(t, a, b)

	if n := strings.Count(src, "toolimpl.SupportsGenerated"); n != 1 {
		t.Errorf("%d version guards, want 1", n)
	}
	const version = "// See package toolimpl. Re-run toolgen if this fails to compile.\nconst _ = toolimpl.SupportsGenerated1\n"
	if i, j := strings.Index(src, version), strings.Index(src, "var _ = struct"); i < 0 || j < i {
		t.Errorf("the version guard is not the first declaration:\n%s", src)
	}
	wantGuard := "// Re-run toolgen if this fails to compile: AInput changed.\n" +
		"var _ = struct {\n\tX, Y string\n\tN    int\n\tBase\n\tM int\n}(AInput{})\n"
	if !strings.Contains(src, wantGuard) {
		t.Errorf("no guard\n%s\nin\n%s", wantGuard, src)
	}
	// Comments stand one line each: the prose is in toolimpl's doc.
	lines := strings.Split(src, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "//") && strings.HasPrefix(lines[i-1], "//") && !strings.HasPrefix(lines[i], "//go:build") {
			t.Errorf("a comment of more than one line at line %d: %q", i+1, lines[i])
		}
	}
}

// TestPackageErrors: what the emitter cannot render is an error naming the
// file, not a panic and not bad code.
func TestPackageErrors(t *testing.T) {
	tests := []struct {
		name string
		tool *model.Tool
		want string
	}{
		{"a type name that is not an identifier", &model.Tool{Name: "X", TypeName: "X Input"}, "p_toolgen.go: rendering generated code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pkg := &model.Package{Path: "example.com/p", Name: "p", Files: []*model.File{{Source: "p.go", Generated: "p_toolgen.go", Package: "p", Tools: []*model.Tool{tt.tool}}}}
			_, err := Package(pkg)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want one starting %q", err, tt.want)
			}
		})
	}
}
