// Package load is toolgen's first stage: it loads Go packages with
// golang.org/x/tools/go/packages and builds the [annotations] model of the
// tools they declare, from type information.
//
// Packages are loaded with the build tag toolgen, so files that toolgen
// generated (tagged //go:build !toolgen) are invisible: a stale, missing or
// broken generated file never stops the next run. Type errors are
// tolerated for the same reason (hand-written code that calls a generated
// binder does not type-check under the tag); only a tool's own types must
// resolve.
package load

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
)

// BuildTag is set when loading, which hides generated files.
const BuildTag = "toolgen"

// Config says what to load.
type Config struct {
	Dir      string   // directory to run in; "" for the current one
	Patterns []string // package patterns; none means "."
	Tests    bool     // include test files (go generate users expect it)
	Env      []string // environment for the go command; nil for os.Environ
}

// Result is what a load found.
type Result struct {
	// Packages declaring tools, sorted by Path.
	Packages []*model.Package

	// Owned lists existing files in the loaded packages' directories that
	// toolgen wrote (name pattern and header), sorted. A file here that
	// no package generates any more is an orphan.
	Owned []string

	// Warnings are package errors that were tolerated, such as type errors
	// in hand-written code that refers to generated names.
	Warnings []string

	// Notes are annotation warnings, sorted: what generation goes on
	// without but the user should fix, such as a tool without
	// //tool:description.
	Notes annotations.ErrorList
}

// Load loads the packages and builds the model. Mistakes in annotations are
// returned together as an [annotations.ErrorList].
func Load(cfg Config) (*Result, error) {
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	fset := token.NewFileSet()
	pcfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
			packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule,
		Dir:        cfg.Dir,
		Env:        cfg.Env,
		BuildFlags: []string{"-tags=" + BuildTag},
		Fset:       fset,
		Tests:      cfg.Tests,
		ParseFile: func(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
			return parser.ParseFile(fset, filename, src, parser.ParseComments|parser.SkipObjectResolution)
		},
	}
	addHidden := hiddenDirs(cfg, patterns)
	pkgs, err := packages.Load(pcfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("loading packages: %w", err)
	}
	deps := newDiskDeps(fset)
	b := &builder{fset: fset, parsed: map[string]*ast.File{}, deps: deps}
	res := &Result{}
	dirs := map[string]bool{}
	var fatal []string
	for _, p := range pkgs {
		if generatedOnly(p) {
			// Only toolgen's files (and other tagged-out files) are left:
			// its owned files are orphans to report, not a load error.
			dirs[p.Dir] = true
			continue
		}
		for _, e := range p.Errors {
			switch {
			case e.Kind == packages.TypeError, strings.HasPrefix(e.Msg, "# "):
				// Type errors, also as the go command's compiler output.
				res.Warnings = append(res.Warnings, e.Error())
			default:
				fatal = append(fatal, e.Error())
			}
		}
	}
	if len(fatal) > 0 {
		slices.Sort(fatal)
		return nil, fmt.Errorf("%s", strings.Join(slices.Compact(fatal), "\n"))
	}
	res.Warnings = dedupeWarnings(res.Warnings, cfg.Dir)
	if err := addHidden(dirs); err != nil {
		return nil, err
	}

	// Group the variants of each package (p, p [p.test]); an external test
	// package p_test is a package of its own.
	byPath := map[string][]*packages.Package{}
	for _, p := range pkgs {
		if p.Types == nil || strings.HasSuffix(p.ID, ".test") && p.Name == "main" {
			continue
		}
		byPath[p.PkgPath] = append(byPath[p.PkgPath], p)
		for _, f := range p.Syntax {
			b.parsed[fset.File(f.Pos()).Name()] = f
		}
	}
	paths := make([]string, 0, len(byPath))
	for path := range byPath {
		paths = append(paths, path)
	}
	slices.Sort(paths)

	for _, path := range paths {
		variants := byPath[path]
		// The variant with the most files first: the test variant sees the
		// test files and type-checks the others as well.
		slices.SortStableFunc(variants, func(a, b *packages.Package) int {
			return cmp.Compare(len(b.Syntax), len(a.Syntax))
		})
		units := make([]Unit, len(variants))
		for i, p := range variants {
			units[i] = Unit{Fset: fset, Pkg: p.Types, Info: p.TypesInfo, Files: p.Syntax, TypeErrors: p.TypeErrors}
			if p.Module != nil && p.Module.Dir != "" {
				units[i].Module = deps.moduleDir(filepath.Clean(p.Module.Dir))
			}
			for _, f := range p.GoFiles {
				dirs[filepath.Dir(f)] = true
			}
		}
		if pkg := b.buildPackage(units); pkg != nil {
			res.Packages = append(res.Packages, pkg)
		}
	}
	res.Owned = ownedFiles(dirs)
	b.warns.Sort()
	res.Notes = b.warns
	b.errs.Sort()
	if err := b.errs.Err(); err != nil {
		return res, err
	}
	return res, nil
}

// ownedFiles lists the generated files toolgen owns in dirs.
func ownedFiles(dirs map[string]bool) []string {
	var owned []string
	for dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.IsDir() || !annotations.IsGeneratedName(e.Name()) {
				continue
			}
			path := filepath.Join(dir, e.Name())
			if IsOwned(path) {
				owned = append(owned, path)
			}
		}
	}
	slices.Sort(owned)
	return owned
}

// IsOwned reports whether the file at path was written by toolgen: its name
// matches the pattern and it starts with toolgen's generated-code header.
func IsOwned(path string) bool {
	if !annotations.IsGeneratedName(filepath.Base(path)) {
		return false
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	return HasHeader(src)
}

// HasHeader reports whether src starts with toolgen's header line, which
// also marks it generated in the sense of go/ast.IsGenerated.
func HasHeader(src []byte) bool {
	line, _, _ := strings.Cut(string(src), "\n")
	return strings.HasPrefix(line, annotations.HeaderPrefix) && strings.HasSuffix(line, " DO NOT EDIT.")
}

// builder turns type information into the model and collects errors.
type builder struct {
	fset   *token.FileSet
	parsed map[string]*ast.File // file name → syntax, for docs of named types
	deps   Deps
	errs   annotations.ErrorList
	warns  annotations.ErrorList // mistakes that do not stop generation

	// Other packages' declarations from deps, parsed into a file set of
	// their own whose positions start at otherBase, past b.fset's.
	other        *token.FileSet
	otherBase    token.Pos
	foreignDecls map[string]TypeDecl  // by package path and type name
	foreignFiles map[string]*ast.File // likewise; nil when it did not parse
}

func (b *builder) pos(p token.Pos) annotations.Pos {
	if !p.IsValid() {
		return annotations.Pos{}
	}
	fset := b.fset
	if b.isForeign(p) {
		fset = b.other
	}
	pp := fset.Position(p)
	return annotations.Pos{File: pp.Filename, Line: pp.Line, Col: pp.Column}
}

// buildPackage builds the model of one package from its variants.
func (b *builder) buildPackage(variants []Unit) *model.Package {
	main := variants[0]
	pkg := &model.Package{Path: main.Pkg.Path(), Name: main.Pkg.Name(), Taken: map[string]bool{}}
	for _, u := range variants {
		for _, f := range u.Files {
			declaredNames(f, pkg.Taken)
		}
	}
	seenFile := map[string]bool{}
	toolNames := map[string]annotations.Pos{}
	genNames := map[string]string{}
	for i := range variants {
		p := &variants[i]
		for _, f := range p.Files {
			name := b.fset.File(f.Pos()).Name()
			if seenFile[name] {
				continue
			}
			seenFile[name] = true
			if pkg.Dir == "" {
				pkg.Dir = filepath.Dir(name)
			}
			tools := b.fileTools(p, f)
			if len(tools) == 0 {
				continue
			}
			for _, t := range tools {
				if prev, ok := toolNames[t.Name]; ok {
					b.errs.Add(t.Pos, "tool name %q is already used at %s; tool names must be unique in a package", t.Name, where(prev, t.Pos))
					continue
				}
				toolNames[t.Name] = t.Pos
				for _, g := range []string{t.BindName(), t.CtorName()} {
					if other, ok := genNames[g]; ok {
						b.errs.Add(t.Pos, "type %s generates %s, as type %s does; rename one of them", t.TypeName, g, other)
					}
					genNames[g] = t.TypeName
					if pkg.Taken[g] {
						b.errs.Add(t.Pos, "%s is already declared in package %s; toolgen generates it for %s: rename one of them", g, pkg.Name, t.TypeName)
					}
				}
			}
			slices.SortFunc(tools, func(a, b *model.Tool) int { return cmp.Compare(a.Name, b.Name) })
			pkg.Files = append(pkg.Files, &model.File{
				Source:    name,
				Generated: filepath.Join(filepath.Dir(name), annotations.GeneratedName(filepath.Base(name))),
				Package:   f.Name.Name,
				Tools:     tools,
			})
		}
	}
	if len(pkg.Files) == 0 {
		return nil
	}
	slices.SortFunc(pkg.Files, func(a, b *model.File) int { return cmp.Compare(a.Source, b.Source) })
	return pkg
}

// comments flattens a comment group into lines with positions.
func (b *builder) comments(g *ast.CommentGroup) []annotations.Comment {
	if g == nil {
		return nil
	}
	out := make([]annotations.Comment, 0, len(g.List))
	for _, c := range g.List {
		out = append(out, annotations.Comment{Pos: b.pos(c.Slash), Text: c.Text})
	}
	return out
}

// typeDoc returns the doc comment of a type spec (on the spec, or on its
// declaration when that declares one type).
func typeDoc(gd *ast.GenDecl, ts *ast.TypeSpec) *ast.CommentGroup {
	if ts.Doc != nil {
		return ts.Doc
	}
	if len(gd.Specs) == 1 && !gd.Lparen.IsValid() {
		return gd.Doc
	}
	return nil
}

// fileTools finds and builds the tools declared in one file.
func (b *builder) fileTools(p *Unit, f *ast.File) []*model.Tool {
	var tools []*model.Tool
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok {
			lines := b.comments(fd.Doc)
			d, errs := annotations.ParseDirectives(lines)
			b.errs = append(b.errs, errs...)
			if !d.Any() {
				continue
			}
			if d.Enum {
				b.errs.Add(d.Pos, "//tool:enum marks a named string type, not a function")
				continue
			}
			if t := b.funcTool(p, fd, d, lines); t != nil {
				tools = append(tools, t)
			}
			continue
		}
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			lines := b.comments(typeDoc(gd, ts))
			d, errs := annotations.ParseDirectives(lines)
			b.errs = append(b.errs, errs...)
			if !d.Any() {
				continue
			}
			obj, _ := p.Info.Defs[ts.Name].(*types.TypeName)
			if obj == nil {
				continue
			}
			if len(errs) > 0 && d.Name == "" && !d.Enum {
				// A misspelt directive: check the fields anyway, so one run
				// reports every mistake, and drop the tool.
				d.Name = obj.Name()
				d.HasDescription = true // no warning for a tool that is dropped
				b.tool(p, obj, ts, d, lines)
				continue
			}
			if d.Enum {
				if d.IsTool() {
					b.errs.Add(d.Pos, "//tool:enum marks a named string type, not a tool; move it to its own type")
				}
				if !isStringType(obj.Type()) || obj.IsAlias() {
					b.errs.Add(d.Pos, "//tool:enum on %s: want a named type over string, e.g. type Mode string", ts.Name.Name)
				}
				continue
			}
			if len(d.Params) > 0 || d.Input != "" {
				b.errs.Add(d.Pos, "//tool:param and //tool:input belong to a function tool's doc comment; a struct's fields carry tool tags")
			}
			if t := b.tool(p, obj, ts, d, lines); t != nil {
				tools = append(tools, t)
			}
		}
	}
	return tools
}

func isStringType(t types.Type) bool {
	basic, ok := t.Underlying().(*types.Basic)
	return ok && basic.Info()&types.IsString != 0
}

// where names prev as seen from cur: a line in the same file, or the
// file's base name and line.
func where(prev, cur annotations.Pos) string {
	if prev.File == cur.File {
		return fmt.Sprintf("line %d", prev.Line)
	}
	return fmt.Sprintf("%s:%d", filepath.Base(prev.File), prev.Line)
}
