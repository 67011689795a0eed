package generate

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// A ToolChange says what differs in one tool's generated code between a
// file on disk and the file toolgen would write now.
type ToolChange struct {
	// Tool is the tool's name; "" for what no single tool owns (the
	// header, the imports, code tools share).
	Tool string
	// Changes say what differs, from the source's point of view (what the
	// source has now that the generated file lacks is "added"): "output
	// field 'priority' added", "input field 'times': maximum changed",
	// "Go field Issue.Priority added", "definition: Timeout changed".
	Changes []string
}

// Explain compares a stale generated file (old) with what toolgen would
// write now (new) and says, tool by tool, what differs: the fields of the
// input and output schemas, the Go fields the guard records, the
// definition's fields, or else the generated function that differs. It
// returns nil when either file does not parse (a file edited by hand, a
// conflict marker), and the callers then report the file as a whole.
func Explain(old, new []byte) []ToolChange {
	o, err := parseGenerated(old)
	if err != nil {
		return nil
	}
	n, err := parseGenerated(new)
	if err != nil {
		return nil
	}
	byTool := map[string][]string{}
	var order []string
	add := func(tool, msg string) {
		if _, ok := byTool[tool]; !ok {
			order = append(order, tool)
		}
		if !slices.Contains(byTool[tool], msg) {
			byTool[tool] = append(byTool[tool], msg)
		}
	}
	if h1, h2 := firstLine(old), firstLine(new); h1 != h2 {
		add("", "the header differs (now: "+strings.TrimPrefix(h2, "// ")+")")
	}
	if o.print(o.imports()) != n.print(n.imports()) {
		add("", "the imports differ")
	}
	// minor are the changes that a schema, guard or definition change
	// explains (the binder of a changed field), listed only without one.
	minor := map[string][]string{}
	keys := n.keys
	for _, k := range o.keys {
		if _, ok := n.decls[k]; !ok {
			keys = append(keys, k)
		}
	}
	// A tool whose definition the old file lacks is missing as a whole.
	missing := map[string]bool{}
	for _, k := range n.keys {
		if owner, r := n.owner(k); r == roleDefinition && owner != "" && o.decls[k] == nil {
			missing[owner] = true
			add(owner, "its generated code is missing")
		}
	}
	for _, k := range keys {
		od, oOK := o.decls[k]
		nd, nOK := n.decls[k]
		if oOK && nOK && o.print(od) == n.print(nd) {
			continue
		}
		if k == "version" {
			// Said only when both files have one: a file without it is
			// older than the guard, or not a whole generated file, and
			// its other differences say more.
			if oOK && nOK {
				add("", "the toolimpl version guard differs")
			}
			continue
		}
		owner, role := n.owner(k)
		if !nOK {
			owner, role = o.owner(k)
		}
		if missing[owner] {
			continue
		}
		var msgs []string
		switch {
		case !oOK || !nOK:
			what := "added"
			if !nOK {
				what = "removed"
			}
			if role == roleGuard {
				msgs = []string{"the guard " + what}
			} else {
				minor[owner] = append(minor[owner], describe(k, role)+" "+what)
			}
		case role == roleInput || role == roleOutput:
			msgs = schemaChanges(o, n, od, nd, string(role))
		case role == roleGuard:
			msgs = guardChanges(o, n, od, nd)
		case role == roleDefinition:
			msgs = definitionChanges(o, n, od, nd)
		default:
			minor[owner] = append(minor[owner], describe(k, role)+" differs")
		}
		for _, m := range msgs {
			add(owner, m)
		}
	}
	for tool, ms := range minor {
		if _, major := byTool[tool]; major && tool != "" {
			continue
		}
		for _, m := range ms {
			add(tool, m)
		}
	}
	out := make([]ToolChange, 0, len(order))
	for _, tool := range order {
		out = append(out, ToolChange{Tool: tool, Changes: byTool[tool]})
	}
	// Tools in name order, what no tool owns first.
	slices.SortStableFunc(out, func(a, b ToolChange) int { return strings.Compare(a.Tool, b.Tool) })
	return out
}

// Describe words changes for one line of a report: "tool Echo: input field
// 'text' added; Go field EchoInput.Text added".
func Describe(c ToolChange) string {
	s := strings.Join(c.Changes, "; ")
	if c.Tool == "" {
		return s
	}
	return "tool " + c.Tool + ": " + s
}

func firstLine(b []byte) string {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return string(line)
}

// role is what a generated declaration is to its tool.
type role string

const (
	roleInput      role = "input"
	roleOutput     role = "output"
	roleDefinition role = "definition"
	roleGuard      role = "guard"
	roleOther      role = ""
)

func describe(key string, r role) string {
	kind, name, _ := strings.Cut(key, " ")
	switch {
	case r == roleInput:
		return "the input schema"
	case r == roleOutput:
		return "the output schema"
	case r == roleDefinition:
		return "the definition"
	case kind == "func" && strings.HasPrefix(name, "Bind"), kind == "func" && strings.HasPrefix(name, "bind"):
		return "the binder " + name
	case kind == "func" && strings.HasPrefix(name, "New"):
		return "the constructor " + name
	case kind == "func" && strings.HasPrefix(name, "fill"):
		return "the output's fill function " + name
	}
	return name
}

// genFile is one parsed generated file: its top-level declarations by key
// ("func BindEchoInput", "var echoInputSchema", "guard EchoInput",
// "version" for the version guard) and
// which tool owns each.
type genFile struct {
	fset  *token.FileSet
	file  *ast.File
	decls map[string]ast.Node
	keys  []string // in file order
	owns  map[string][]string
	roles map[string]role
}

func parseGenerated(src []byte) (*genFile, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	g := &genFile{fset: fset, file: f, decls: map[string]ast.Node{}, owns: map[string][]string{}, roles: map[string]role{}}
	put := func(key string, n ast.Node) {
		if _, dup := g.decls[key]; dup {
			return
		}
		g.decls[key] = n
		g.keys = append(g.keys, key)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			put("func "+d.Name.Name, d)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			if d.Tok == token.CONST {
				put("version", d) // const _ = toolimpl.SupportsGeneratedN
				continue
			}
			if t := guardType(d); t != "" {
				put("guard "+t, d)
				continue
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, id := range s.Names {
						put("var "+id.Name, s)
					}
				case *ast.TypeSpec:
					put("type "+s.Name.Name, s)
				}
			}
		}
	}
	g.attribute()
	return g, nil
}

// guardType returns the type a guard declaration converts first (its
// tool's input type), or "" for a declaration that is not a guard.
func guardType(d *ast.GenDecl) string {
	if d.Tok != token.VAR || len(d.Specs) == 0 {
		return ""
	}
	s, ok := d.Specs[0].(*ast.ValueSpec)
	if !ok || len(s.Names) != 1 || s.Names[0].Name != "_" || len(s.Values) != 1 {
		return ""
	}
	return convertedType(s.Values[0])
}

// convertedType returns T of a guard's expression: struct{...}(T{}), or
// func(v T) (...) {...} for a struct with fields it cannot name.
func convertedType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.CallExpr:
		if len(e.Args) == 1 {
			if cl, ok := e.Args[0].(*ast.CompositeLit); ok {
				return exprString(cl.Type)
			}
		}
	case *ast.FuncLit:
		if ps := e.Type.Params.List; len(ps) == 1 {
			return exprString(ps[0].Type)
		}
	}
	return ""
}

func exprString(e ast.Expr) string {
	var b bytes.Buffer
	_ = printer.Fprint(&b, token.NewFileSet(), e)
	return b.String()
}

func (g *genFile) print(n ast.Node) string {
	if n == nil {
		return ""
	}
	var b bytes.Buffer
	_ = printer.Fprint(&b, g.fset, n)
	return b.String()
}

func (g *genFile) imports() ast.Node {
	for _, d := range g.file.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
			return gd
		}
	}
	return nil
}

// owner returns the tool that owns the declaration key ("" when none or
// several do) and its role.
func (g *genFile) owner(key string) (string, role) {
	tools := g.owns[key]
	if len(tools) != 1 {
		return "", g.roles[key]
	}
	return tools[0], g.roles[key]
}

// attribute finds each tool's declarations: its Definition (a var whose
// value is a tool.Definition literal, named by its Name field), the
// schemas it names, the functions that refer to it (the constructor) and
// everything they refer to in turn, and the guard of the input type the
// binder returns.
func (g *genFile) attribute() {
	refs := map[string][]string{} // key → keys it refers to
	byName := map[string]string{} // identifier → key
	for _, k := range g.keys {
		_, name, _ := strings.Cut(k, " ")
		if !strings.HasPrefix(k, "guard ") {
			byName[name] = k
		}
	}
	for _, k := range g.keys {
		ast.Inspect(g.decls[k], func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if r, ok := byName[id.Name]; ok && r != k && !slices.Contains(refs[k], r) {
					refs[k] = append(refs[k], r)
				}
			}
			return true
		})
	}
	for _, k := range g.keys {
		spec, ok := g.decls[k].(*ast.ValueSpec)
		if !ok || len(spec.Values) != 1 {
			continue
		}
		def, ok := spec.Values[0].(*ast.CompositeLit)
		if !ok || !isDefinitionType(def.Type) {
			continue
		}
		tool := ""
		for _, el := range def.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			key, _ := kv.Key.(*ast.Ident)
			if key == nil {
				continue
			}
			switch key.Name {
			case "Name":
				if lit, ok := kv.Value.(*ast.BasicLit); ok {
					tool, _ = strconv.Unquote(lit.Value)
				}
			case "InputSchema", "OutputSchema":
				if id, ok := kv.Value.(*ast.Ident); ok {
					r := roleInput
					if key.Name == "OutputSchema" {
						r = roleOutput
					}
					g.roles["var "+id.Name] = r
				}
			}
		}
		if tool == "" {
			continue
		}
		g.roles[k] = roleDefinition
		// The declarations that refer to the definition, and all they
		// refer to.
		seen := map[string]bool{k: true}
		todo := []string{k}
		for _, other := range g.keys {
			if slices.Contains(refs[other], k) {
				todo = append(todo, other)
				seen[other] = true
			}
		}
		for len(todo) > 0 {
			cur := todo[0]
			todo = todo[1:]
			g.owns[cur] = append(g.owns[cur], tool)
			for _, r := range refs[cur] {
				if !seen[r] {
					seen[r] = true
					todo = append(todo, r)
				}
			}
			if in := binderInput(g.decls[cur]); in != "" {
				if gk := "guard " + in; g.decls[gk] != nil && !seen[gk] {
					seen[gk] = true
					g.roles[gk] = roleGuard
					todo = append(todo, gk)
				}
			}
		}
	}
}

func isDefinitionType(e ast.Expr) bool {
	switch t := e.(type) {
	case *ast.SelectorExpr:
		return t.Sel.Name == "Definition"
	case *ast.Ident:
		return t.Name == "Definition"
	}
	return false
}

// binderInput returns X of a func BindX(tool.Input) (X, error), or "".
func binderInput(n ast.Node) string {
	fd, ok := n.(*ast.FuncDecl)
	if !ok || !strings.HasPrefix(fd.Name.Name, "Bind") || fd.Type.Results == nil || len(fd.Type.Results.List) != 2 {
		return ""
	}
	return exprString(fd.Type.Results.List[0].Type)
}

// schemaChanges lists the fields of a schema literal that differ:
// "output field 'priority' added", "input field 'times': maximum changed".
func schemaChanges(o, n *genFile, od, nd ast.Node, which string) []string {
	of, nf := map[string]map[string]string{}, map[string]map[string]string{}
	var oOrder, nOrder []string
	flattenSchema(o, valueOf(od), "", of, &oOrder)
	flattenSchema(n, valueOf(nd), "", nf, &nOrder)
	var out []string
	for _, p := range nOrder {
		attrs, ok := of[p]
		switch {
		case !ok && within(p, of, nf):
			// Below a field added as a whole.
		case !ok:
			out = append(out, which+" field '"+p+"' added")
		case p == "":
			if ks := changedKeys(attrs, nf[p]); len(ks) > 0 {
				out = append(out, "the "+which+" schema's "+strings.Join(ks, ", ")+" changed")
			}
		default:
			if ks := changedKeys(attrs, nf[p]); len(ks) > 0 {
				out = append(out, which+" field '"+p+"': "+strings.Join(ks, ", ")+" changed")
			}
		}
	}
	for _, p := range oOrder {
		if _, ok := nf[p]; !ok && !within(p, nf, of) {
			out = append(out, which+" field '"+p+"' removed")
		}
	}
	if len(out) == 0 {
		out = append(out, "the "+which+" schema differs")
	}
	return out
}

// within reports whether path p lies below a field that in has and
// notIn lacks: a part of a field added or removed as a whole.
func within(p string, notIn, in map[string]map[string]string) bool {
	for i := len(p) - 1; i > 0; i-- {
		if p[i] != '.' && p[i] != '[' && p[i] != '{' {
			continue
		}
		parent := p[:i]
		if _, ok := in[parent]; ok {
			if _, ok := notIn[parent]; !ok {
				return true
			}
		}
	}
	return false
}

func valueOf(n ast.Node) ast.Expr {
	if s, ok := n.(*ast.ValueSpec); ok && len(s.Values) == 1 {
		return s.Values[0]
	}
	return nil
}

// flattenSchema records, for the schema literal e at path and every
// property below it (nested properties as a.b, items as a[], map values as
// a{}), its own keywords (the printed value of each, without the nested
// schemas).
func flattenSchema(g *genFile, e ast.Expr, path string, out map[string]map[string]string, order *[]string) {
	cl, ok := e.(*ast.CompositeLit)
	if !ok {
		return
	}
	own := map[string]string{}
	out[path] = own
	*order = append(*order, path)
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key := litString(kv.Key)
		switch key {
		case "properties":
			if props, ok := kv.Value.(*ast.CompositeLit); ok {
				for _, p := range props.Elts {
					if pkv, ok := p.(*ast.KeyValueExpr); ok {
						name := litString(pkv.Key)
						child := name
						if path != "" {
							child = path + "." + name
						}
						flattenSchema(g, pkv.Value, child, out, order)
					}
				}
			}
			continue
		case "items":
			flattenSchema(g, kv.Value, path+"[]", out, order)
			continue
		case "additionalProperties":
			if _, ok := kv.Value.(*ast.CompositeLit); ok {
				flattenSchema(g, kv.Value, path+"{}", out, order)
				continue
			}
		}
		own[key] = g.print(kv.Value)
	}
}

func litString(e ast.Expr) string {
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
		if s, err := strconv.Unquote(lit.Value); err == nil {
			return s
		}
	}
	return exprString(e)
}

// changedKeys lists the keys whose values differ between a and b, sorted.
func changedKeys(a, b map[string]string) []string {
	var ks []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			ks = append(ks, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// guardChanges lists the Go fields the guard records that differ: "Go
// field Issue.Priority added", "Go field EchoInput.Times: type changed".
func guardChanges(o, n *genFile, od, nd ast.Node) []string {
	of, oTypes := guardFields(o, od)
	nf, nTypes := guardFields(n, nd)
	var out []string
	for _, t := range nTypes {
		ofs, ok := of[t]
		if !ok {
			out = append(out, "Go type "+t+" added to the guard")
			continue
		}
		for _, f := range nf[t].order {
			switch typ, ok := ofs.types[f]; {
			case !ok:
				out = append(out, "Go field "+t+"."+f+" added")
			case typ != nf[t].types[f]:
				out = append(out, "Go field "+t+"."+f+": type changed")
			}
		}
		for _, f := range ofs.order {
			if _, ok := nf[t].types[f]; !ok {
				out = append(out, "Go field "+t+"."+f+" removed")
			}
		}
	}
	for _, t := range oTypes {
		if _, ok := nf[t]; !ok {
			out = append(out, "Go type "+t+" removed from the guard")
		}
	}
	if len(out) == 0 {
		out = append(out, "the guard differs")
	}
	return out
}

type fieldList struct {
	order []string
	types map[string]string
}

func guardFields(g *genFile, n ast.Node) (map[string]fieldList, []string) {
	out := map[string]fieldList{}
	var order []string
	d, ok := n.(*ast.GenDecl)
	if !ok {
		return out, nil
	}
	for _, s := range d.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 {
			continue
		}
		t := convertedType(vs.Values[0])
		fl := fieldList{types: map[string]string{}}
		var fields *ast.FieldList
		switch e := vs.Values[0].(type) {
		case *ast.CallExpr:
			if st, ok := e.Fun.(*ast.StructType); ok {
				fields = st.Fields
			}
		case *ast.FuncLit:
			fields = e.Type.Results
		}
		if fields != nil {
			for _, f := range fields.List {
				typ := g.print(f.Type)
				names := f.Names
				if len(names) == 0 {
					name := typ
					if i := strings.LastIndexAny(name, ".*"); i >= 0 {
						name = name[i+1:]
					}
					names = []*ast.Ident{{Name: name}}
				}
				for _, id := range names {
					fl.order = append(fl.order, id.Name)
					fl.types[id.Name] = typ
				}
			}
		}
		out[t] = fl
		order = append(order, t)
	}
	return out, order
}

// definitionChanges lists the fields of a Definition literal that differ:
// "definition: Description, Timeout changed".
func definitionChanges(o, n *genFile, od, nd ast.Node) []string {
	fields := func(g *genFile, node ast.Node) map[string]string {
		m := map[string]string{}
		if cl, ok := valueOf(node).(*ast.CompositeLit); ok {
			for _, el := range cl.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if id, ok := kv.Key.(*ast.Ident); ok && id.Name != "InputSchema" && id.Name != "OutputSchema" {
						m[id.Name] = g.print(kv.Value)
					}
				}
			}
		}
		return m
	}
	ks := changedKeys(fields(o, od), fields(n, nd))
	if len(ks) == 0 {
		return nil
	}
	return []string{"definition: " + strings.Join(ks, ", ") + " changed"}
}
