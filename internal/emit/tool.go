package emit

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
)

// gen renders the declarations of one file.
type gen struct {
	file    *jen.File
	imports map[string]string // path → package name, of every package used
	plan    *toolPlan

	output   bool // rendering an output schema (see output.go)
	nullable bool // the next schema rendered admits null too
}

func (g *gen) qual(path, name string) *jen.Statement {
	if g.imports == nil {
		g.imports = map[string]string{}
	}
	if n, ok := stdNames[path]; ok {
		g.imports[path] = n
	}
	return jen.Qual(path, name)
}

func (g *gen) tool(p *toolPlan) {
	g.plan = p
	t := p.t
	f := g.file

	// The guard first: after a field is renamed, its error is the first the
	// compiler shows (errors are listed in source order), with the comment
	// saying what to do, before those of the code that uses the field.
	if t.Func != nil {
		g.funcInput()
	}
	g.guard()

	// The schema.
	f.Commentf("%s is the %s tool's input schema.", p.schema, t.Name)
	f.Var().Id(p.schema).Op("=").Add(g.objectSchema(t.Fields, ""))
	f.Line()
	g.outputSchema()

	g.definition()
	g.constructor()
	if t.Func != nil {
		g.funcConstructor()
	}
	g.fillFuncs()
	g.binder()
	for _, st := range p.order {
		g.helper(st)
	}
}

// outputSchema renders the schema of the //tool:output struct, built once.
func (g *gen) outputSchema() {
	p, t := g.plan, g.plan.t
	if t.Output == nil {
		return
	}
	g.file.Commentf("%s is the %s tool's output schema: the JSON form of %s.", p.outSchema, t.Name, t.Output.TypeName)
	g.output = true
	g.file.Var().Id(p.outSchema).Op("=").Add(g.objectSchema(t.Output.Fields, ""))
	g.output = false
	g.file.Line()
}

func allFields(fields []*model.Field) []*model.Field {
	var out []*model.Field
	var walkType func(t *model.Type)
	walkType = func(t *model.Type) {
		switch t.Kind {
		case model.Pointer, model.Slice, model.Array, model.Map:
			walkType(t.Elem)
		case model.Struct:
			for _, f := range t.Fields {
				out = append(out, f)
				walkType(f.Type)
			}
		}
	}
	for _, f := range fields {
		out = append(out, f)
		walkType(f.Type)
	}
	// Struct types used twice appear twice; keep the first.
	seen := map[*model.Field]bool{}
	uniq := out[:0]
	for _, f := range out {
		if !seen[f] {
			seen[f] = true
			uniq = append(uniq, f)
		}
	}
	return uniq
}

// typ spells a Go type.
func (g *gen) typ(e *model.TypeExpr) *jen.Statement {
	switch e.Kind {
	case model.ExprNamed:
		var s *jen.Statement
		if e.Path == "" {
			s = jen.Id(e.Name)
		} else {
			if g.imports == nil {
				g.imports = map[string]string{}
			}
			g.imports[e.Path] = e.Pkg
			s = jen.Qual(e.Path, e.Name)
		}
		if len(e.Args) > 0 {
			args := make([]jen.Code, len(e.Args))
			for i, a := range e.Args {
				args[i] = g.typ(a)
			}
			s = s.Types(args...)
		}
		return s
	case model.ExprPointer:
		return jen.Op("*").Add(g.typ(e.Elem))
	case model.ExprSlice:
		return jen.Index().Add(g.typ(e.Elem))
	case model.ExprArray:
		return jen.Index(jen.Lit(int(e.Len))).Add(g.typ(e.Elem))
	case model.ExprMap:
		return jen.Map(g.typ(e.Key)).Add(g.typ(e.Elem))
	case model.ExprStruct:
		fields := make([]jen.Code, len(e.Fields))
		for i, f := range e.Fields {
			var s *jen.Statement
			if f.Embedded {
				s = g.typ(f.Type)
			} else {
				s = jen.Id(f.Name).Add(g.typ(f.Type))
			}
			if f.Tag != "" {
				s = s.Op(tagLit(f.Tag))
			}
			fields[i] = s
		}
		return jen.Struct(fields...)
	case model.ExprInterface:
		return jen.Any()
	}
	panic(fmt.Sprintf("emit: unknown type expression kind %d", e.Kind))
}

func tagLit(tag string) string {
	if !strings.Contains(tag, "`") {
		return "`" + tag + "`"
	}
	return strconv.Quote(tag)
}

// objectSchema renders the schema of an object with the given fields.
func (g *gen) objectSchema(fields []*model.Field, desc string) jen.Code {
	nullable := g.takeNullable()
	props := jen.Dict{}
	var required []jen.Code
	for _, f := range fields {
		typ := f.Type
		if g.output && typ.Kind == model.Pointer && f.OmitEmpty {
			typ = typ.Elem // a nil pointer is left out, never sent as null
		}
		props[jen.Lit(f.Wire)] = g.valueSchema(typ, &f.Constraints, f.Description, f.Default)
		if f.Required {
			required = append(required, jen.Lit(f.Wire))
		}
	}
	propsCode := jen.Map(jen.String()).Any().Values(props)
	if len(fields) == 0 {
		propsCode = jen.Map(jen.String()).Any().Values()
	}
	d := jen.Dict{
		jen.Lit("type"):                 g.typeValue("object", nullable),
		jen.Lit("properties"):           propsCode,
		jen.Lit("additionalProperties"): jen.False(),
	}
	if len(required) > 0 {
		d[jen.Lit("required")] = jen.Index().String().Values(required...)
	}
	if desc != "" {
		d[jen.Lit("description")] = jen.Lit(desc)
	}
	return jen.Map(jen.String()).Any().Values(d)
}

// valueSchema renders the schema of one value; scalar constraints of a
// slice or map apply to its elements.
func (g *gen) valueSchema(t *model.Type, c *model.Constraints, desc string, def any) jen.Code {
	if t.Kind == model.Pointer {
		g.nullable = g.output // an output's nil pointer is sent as null
		return g.valueSchema(t.Elem, c, desc, def)
	}
	if t.Kind == model.Struct {
		return g.objectSchema(t.Fields, desc)
	}
	nullable := g.takeNullable()
	duration := t.Kind == model.Duration || (c != nil && c.Format == annotations.FormatDuration)
	if duration {
		// JSON Schema's "duration" format is ISO 8601 (PT1M30S); the
		// binder reads Go's syntax, so the schema says that instead.
		desc = strings.TrimSpace(desc + " " + durationHint)
	}
	if c != nil && c.Clamp {
		// A clamped value is valid whatever its size: the binder moves it
		// into the range. minimum and maximum would make a validator (the
		// gate, a provider) refuse what the tool accepts, so the range is
		// said in words instead.
		desc = strings.TrimSpace(desc + " " + clampHint(c))
	}
	d := jen.Dict{}
	if desc != "" {
		d[jen.Lit("description")] = jen.Lit(desc)
	}
	if typ := t.JSONType(); typ != "" {
		d[jen.Lit("type")] = g.typeValue(typ, nullable)
	}
	elemC := model.Constraints{}
	if c != nil {
		elemC = *c
		elemC.MinItems, elemC.MaxItems = nil, nil
	}
	switch t.Kind {
	case model.Slice, model.Array:
		d[jen.Lit("items")] = g.valueSchema(t.Elem, &elemC, "", nil)
		if t.Kind == model.Array {
			d[jen.Lit("minItems")] = jen.Lit(int(t.Len))
			d[jen.Lit("maxItems")] = jen.Lit(int(t.Len))
		}
		if c != nil && c.MinItems != nil {
			d[jen.Lit("minItems")] = jen.Lit(*c.MinItems)
		}
		if c != nil && c.MaxItems != nil {
			d[jen.Lit("maxItems")] = jen.Lit(*c.MaxItems)
		}
		return jen.Map(jen.String()).Any().Values(d)
	case model.Map:
		d[jen.Lit("additionalProperties")] = g.valueSchema(t.Elem, &elemC, "", nil)
		return jen.Map(jen.String()).Any().Values(d)
	case model.Time:
		d[jen.Lit("format")] = jen.Lit("date-time")
	case model.Duration:
		d[jen.Lit("pattern")] = jen.Lit(goDurationPattern)
	case model.Int, model.Uint, model.Float:
		// The Go type's own range, which the binder enforces: stated for
		// the sized kinds (int8 ... uint32, float32) and for unsigned
		// minimums; the 64-bit bounds are beyond what a model needs told.
		lo, hi := typeRange(t)
		if lo != nil && (c == nil || c.Min == nil) {
			d[jen.Lit("minimum")] = lo
		}
		if hi != nil && (c == nil || c.Max == nil) {
			d[jen.Lit("maximum")] = hi
		}
	}
	if c != nil {
		if c.Enum != nil {
			vals := make([]jen.Code, len(c.Enum))
			for i, v := range c.Enum {
				vals[i] = jen.Lit(v)
			}
			if nullable {
				d[jen.Lit("enum")] = jen.Index().Any().Values(append(vals, jen.Nil())...)
			} else {
				d[jen.Lit("enum")] = jen.Index().String().Values(vals...)
			}
		}
		if c.Min != nil && !c.Clamp {
			d[jen.Lit("minimum")] = number(t, c.Min.Text)
		}
		if c.Max != nil && !c.Clamp {
			d[jen.Lit("maximum")] = number(t, c.Max.Text)
		}
		if c.MinLen != nil {
			d[jen.Lit("minLength")] = jen.Lit(*c.MinLen)
		}
		if c.MaxLen != nil {
			d[jen.Lit("maxLength")] = jen.Lit(*c.MaxLen)
		}
		if c.Pattern != "" {
			d[jen.Lit("pattern")] = jen.Lit(c.Pattern)
		}
		if c.Format == annotations.FormatDuration {
			if c.Pattern == "" {
				d[jen.Lit("pattern")] = jen.Lit(goDurationPattern)
			}
		} else if c.Format != "" {
			d[jen.Lit("format")] = jen.Lit(string(c.Format))
		}
	}
	if def != nil {
		var v jen.Code = jen.Lit(def)
		switch x := def.(type) {
		case int64:
			v = jen.Op(strconv.FormatInt(x, 10))
		case uint64:
			v = jen.Op(strconv.FormatUint(x, 10))
			if x > 1<<63-1 {
				v = jen.Uint64().Call(v)
			}
		}
		d[jen.Lit("default")] = v
	}
	return jen.Map(jen.String()).Any().Values(d)
}

// clampHint says, for the model, what a clamped field does with a value
// out of its range.
func clampHint(c *model.Constraints) string {
	switch {
	case c.Min != nil && c.Max != nil:
		return fmt.Sprintf("Values outside %s to %s are clamped to that range.", c.Min.Text, c.Max.Text)
	case c.Min != nil:
		return fmt.Sprintf("Values below %s are raised to %s.", c.Min.Text, c.Min.Text)
	case c.Max != nil:
		return fmt.Sprintf("Values above %s are lowered to %s.", c.Max.Text, c.Max.Text)
	}
	return ""
}

// goDurationPattern matches what time.ParseDuration reads: "0", or numbers
// with units (ns, us, µs, ms, s, m, h), signed: 1m30s, -1.5h, 250ms.
const goDurationPattern = `^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$`

// durationHint ends the description of a duration parameter.
const durationHint = "A Go duration such as 1m30s or 250ms."

// typeRange returns the schema bounds a numeric Go type implies, nil where
// none is stated.
func typeRange(t *model.Type) (lo, hi jen.Code) {
	switch t.Kind {
	case model.Int:
		if t.Bits > 0 && t.Bits < 64 {
			return jen.Lit(-(1 << (t.Bits - 1))), jen.Lit(1<<(t.Bits-1) - 1)
		}
	case model.Uint:
		if t.Bits > 0 && t.Bits < 64 {
			return jen.Lit(0), jen.Lit(1<<t.Bits - 1)
		}
		return jen.Lit(0), nil
	case model.Float:
		if t.Bits == 32 {
			return jen.Lit(-math.MaxFloat32), jen.Lit(math.MaxFloat32)
		}
	}
	return nil, nil
}

// number renders a bound as a constant of the schema: an untyped integer
// for integer kinds (uint64 beyond int64 typed), a float constant for
// floats.
func number(t *model.Type, text string) jen.Code {
	switch t.Kind {
	case model.Uint:
		if u, err := strconv.ParseUint(text, 10, 64); err == nil && u > 1<<63-1 {
			return jen.Uint64().Call(jen.Op(text))
		}
	case model.Float:
		f, _ := strconv.ParseFloat(text, 64)
		return jen.Lit(f)
	}
	return jen.Op(text)
}

// defaultValue renders a default as a Go value of the field's type.
func (g *gen) defaultValue(t *model.Type, def any) jen.Code {
	var v jen.Code
	switch x := def.(type) {
	case string:
		switch t.Kind {
		case model.Duration:
			d, _ := time.ParseDuration(x)
			return durationCode(g, d)
		case model.Time:
			tm, _ := time.Parse(time.RFC3339, x)
			return g.qual(timePkg, "Date").Call(jen.Lit(tm.Year()), g.qual(timePkg, tm.Month().String()), jen.Lit(tm.Day()),
				jen.Lit(tm.Hour()), jen.Lit(tm.Minute()), jen.Lit(tm.Second()), jen.Lit(tm.Nanosecond()), g.qual(timePkg, "UTC"))
		}
		v = jen.Lit(x)
	case bool:
		v = jen.Lit(x)
	case int64:
		v = jen.Op(strconv.FormatInt(x, 10))
	case uint64:
		v = jen.Op(strconv.FormatUint(x, 10))
	case float64:
		v = jen.Lit(x)
	}
	return v // an untyped constant: assignable to named types too
}

// durationCode spells d as a sum of time units, e.g. 90 * time.Second.
func durationCode(g *gen, d time.Duration) jen.Code {
	units := []struct {
		name string
		d    time.Duration
	}{{"Hour", time.Hour}, {"Minute", time.Minute}, {"Second", time.Second}, {"Millisecond", time.Millisecond}, {"Microsecond", time.Microsecond}, {"Nanosecond", time.Nanosecond}}
	if d == 0 {
		return jen.Lit(0)
	}
	for _, u := range units {
		if d%u.d == 0 {
			if d/u.d == 1 {
				return g.qual(timePkg, u.name)
			}
			return jen.Op(strconv.FormatInt(int64(d/u.d), 10)).Op("*").Add(g.qual(timePkg, u.name))
		}
	}
	return jen.Op(strconv.FormatInt(int64(d), 10))
}
