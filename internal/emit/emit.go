// Package emit is toolgen's last stage: it renders the [annotations] model
// into Go source with github.com/dave/jennifer, in memory. It does no file
// I/O, so the command can write the result or compare it with what is on
// disk (-check).
//
// For every tool, a generated file holds the input schema (a map literal
// built once), the binder BindX (from a tool.Input's map), the raw binder
// BindXJSON (from the argument bytes, through runtime/jsonscan), the
// constructor NewXTool with its
// unexported tool type and the behaviour methods the directives declare,
// and a compile-time guard: a conversion of every struct type the tool
// binds (the input, nested, embedded, generic and other packages' structs)
// to the struct it was at generation, so a field added, removed, renamed or
// retyped anywhere the binder reaches fails the build. Conversions ignore
// struct tags, so a changed json or tool tag (a constraint) builds; toolgen
// -check and the toolgencheck analyzer report those.
package emit

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/imports"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
)

// Import paths of the packages generated code uses. A renamed package
// costs one line here.
const (
	toolPkg     = "github.com/toolgen/toolgen/runtime/tool"
	schemaPkg   = "github.com/toolgen/toolgen/runtime/schema"
	jsonscanPkg = "github.com/toolgen/toolgen/runtime/jsonscan"
	contextPkg  = "context"
	jsonPkg     = "encoding/json"
	mapsPkg     = "maps"
	mathPkg     = "math"
	mailPkg     = "net/mail"
	urlPkg      = "net/url"
	regexpPkg   = "regexp"
	slicesPkg   = "slices"
	strconvPkg  = "strconv"
	timePkg     = "time"
	utf8Pkg     = "unicode/utf8"
)

// stdNames are the package names of the fixed imports.
var stdNames = map[string]string{
	toolPkg: "tool", schemaPkg: "schema", jsonscanPkg: "jsonscan", contextPkg: "context", jsonPkg: "json", mapsPkg: "maps",
	mathPkg: "math", mailPkg: "mail", urlPkg: "url", regexpPkg: "regexp", slicesPkg: "slices",
	strconvPkg: "strconv", timePkg: "time", utf8Pkg: "utf8",
}

// locals are the names generated function bodies declare; import names
// avoid them so a local never shadows a package.
var locals = []string{
	"O", "arr", "args", "at", "b", "ctx", "d", "data", "doc", "e", "err", "f", "i", "in", "it", "k",
	"list", "m", "mem", "mm", "n", "names", "obj", "ok", "out", "p", "path", "res", "run", "s", "seen",
	"t", "tc", "u", "unknown", "v", "vs",
}

// Files renders every generated file of the packages, keyed by path.
func Files(pkgs []*model.Package) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, pkg := range pkgs {
		files, err := Package(pkg)
		if err != nil {
			return nil, err
		}
		for name, src := range files {
			out[name] = src
		}
	}
	return out, nil
}

// Package renders the generated files of one package, keyed by path.
func Package(pkg *model.Package) (map[string][]byte, error) {
	n := newNamer(pkg)
	// Names first, for the whole package, so every file sees the others'.
	plans := make([][]*toolPlan, len(pkg.Files))
	for i, f := range pkg.Files {
		for _, t := range f.Tools {
			plans[i] = append(plans[i], planTool(n, t))
		}
	}
	out := map[string][]byte{}
	for i, f := range pkg.Files {
		src, err := renderFile(pkg, f, plans[i], n)
		if err != nil {
			return nil, err
		}
		out[f.Generated] = src
	}
	return out, nil
}

// namer hands out package-scope names that collide with nothing.
type namer struct {
	taken map[string]bool
}

func newNamer(pkg *model.Package) *namer {
	n := &namer{taken: map[string]bool{}}
	for k := range pkg.Taken {
		n.taken[k] = true
	}
	return n
}

// unique returns base, or base with the smallest number appended that is
// free, and takes it.
func (n *namer) unique(base string) string {
	name := base
	for i := 2; n.taken[name] || jen.IsReservedWord(name); i++ {
		name = base + strconv.Itoa(i)
	}
	n.taken[name] = true
	return name
}

// renderFile renders one generated file.
func renderFile(pkg *model.Package, f *model.File, plans []*toolPlan, n *namer) ([]byte, error) {
	path := pkg.Path
	jf := jen.NewFilePathName(path, f.Package)
	g := &gen{file: jf}
	for _, p := range plans {
		g.tool(p)
	}
	// Import names: the package's own name unless a package-scope
	// identifier, a generated name or a local takes it.
	used := map[string]string{}
	for _, p := range plans {
		for path, name := range p.imports {
			used[path] = name
		}
	}
	for path, name := range g.imports {
		used[path] = name
	}
	paths := make([]string, 0, len(used))
	for p := range used {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	taken := map[string]bool{}
	for k := range n.taken {
		taken[k] = true
	}
	for _, l := range locals {
		taken[l] = true
	}
	for _, p := range paths {
		name := used[p]
		alias := name
		for i := 2; taken[alias] || jen.IsReservedWord(alias); i++ {
			alias = name + strconv.Itoa(i)
		}
		taken[alias] = true
		if alias == name {
			jf.ImportName(p, name)
		} else {
			jf.ImportAlias(p, alias)
		}
	}
	var body bytes.Buffer
	if err := jf.Render(&body); err != nil {
		return nil, fmt.Errorf("%s: rendering generated code: %v", f.Generated, err)
	}
	var out bytes.Buffer
	fmt.Fprintf(&out, "%s. DO NOT EDIT.\n// Source: %s\n\n//go:build !%s\n\n", annotations.HeaderPrefix, filepath.Base(f.Source), "toolgen")
	out.Write(body.Bytes())
	// Group the imports as goimports does: standard library first.
	src, err := imports.Process(f.Generated, out.Bytes(), &imports.Options{FormatOnly: true, Comments: true, TabIndent: true, TabWidth: 8})
	if err != nil {
		return nil, fmt.Errorf("%s: formatting generated code: %v", f.Generated, err)
	}
	return src, nil
}

// A toolPlan holds the names chosen for one tool's generated declarations.
type toolPlan struct {
	t          *model.Tool
	bind       string                  // BindEchoInput
	bindJSON   string                  // BindEchoInputJSON
	rawBind    string                  // bindEchoInputJSON, the raw binder's core
	ctor       string                  // NewEchoTool
	typ        string                  // echoTool
	schema     string                  // echoInputSchema
	outSchema  string                  // weatherReportSchema, for //tool:output
	helpers    map[string]string       // struct Key → helper name
	rawHelpers map[string]string       // struct Key → the raw binder's helper name
	order      []*model.Type           // helper types in first-use order
	patterns   map[*model.Field]string // the field declaring each pattern variable
	formats    map[*model.Field]string // uuid regexps, likewise
	byPattern  map[string]string       // pattern text → its variable
	uuidVar    string                  // the uuid regexp's variable
	imports    map[string]string
}

func planTool(n *namer, t *model.Tool) *toolPlan {
	p := &toolPlan{
		t:          t,
		bind:       "Bind" + t.TypeName,
		helpers:    map[string]string{},
		rawHelpers: map[string]string{},
		patterns:   map[*model.Field]string{},
		formats:    map[*model.Field]string{},
		byPattern:  map[string]string{},
		imports:    map[string]string{},
	}
	base := t.TypeName
	if s, ok := strings.CutSuffix(base, "Input"); ok && s != "" {
		base = s
	}
	p.ctor = "New" + base + "Tool"
	p.bindJSON = p.bind + "JSON"
	n.taken[p.bind] = true
	n.taken[p.bindJSON] = true
	n.taken[p.ctor] = true
	p.rawBind = n.unique(lowerFirst(p.bindJSON))
	p.typ = n.unique(lowerFirst(base) + "Tool")
	p.schema = n.unique(lowerFirst(t.TypeName) + "Schema")
	if t.Output != nil {
		p.outSchema = n.unique(lowerFirst(t.Output.TypeName) + "OutputSchema")
	}
	var walk func(fields []*model.Field, prefix string)
	var walkType func(ty *model.Type, f *model.Field, prefix string)
	walkType = func(ty *model.Type, f *model.Field, prefix string) {
		switch ty.Kind {
		case model.Pointer, model.Slice, model.Array, model.Map:
			walkType(ty.Elem, f, prefix)
		case model.Struct:
			if _, ok := p.helpers[ty.Key]; ok {
				return
			}
			name := prefix + strings.Join(f.GoPath, "")
			if ty.Go.Kind == model.ExprNamed {
				name = ty.Go.Name
			}
			p.helpers[ty.Key] = n.unique("bind" + t.TypeName + upperFirst(name))
			p.rawHelpers[ty.Key] = n.unique(p.helpers[ty.Key] + "JSON")
			p.order = append(p.order, ty)
			walk(ty.Fields, name)
		}
	}
	walk = func(fields []*model.Field, prefix string) {
		for _, f := range fields {
			// One variable per distinct pattern: the constraints of a
			// slice's or map's elements are copies of the field's, so
			// the binder finds the variable by the pattern's text.
			if pat := f.Constraints.Pattern; pat != "" && p.byPattern[pat] == "" {
				p.patterns[f] = n.unique(lowerFirst(t.TypeName) + prefix + strings.Join(f.GoPath, "") + "Pattern")
				p.byPattern[pat] = p.patterns[f]
			}
			if f.Constraints.Format == annotations.FormatUUID && p.uuidVar == "" {
				p.formats[f] = n.unique(lowerFirst(t.TypeName) + prefix + strings.Join(f.GoPath, "") + "UUID")
				p.uuidVar = p.formats[f]
			}
			walkType(f.Type, f, prefix)
		}
	}
	walk(t.Fields, "")
	return p
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	// Keep initialisms readable: URLInput gives urlInput.
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	switch {
	case i == 0:
		return s
	case i == 1 || i == len(s):
		return strings.ToLower(s[:i]) + s[i:]
	}
	return strings.ToLower(s[:i-1]) + s[i-1:]
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
