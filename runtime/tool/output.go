package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/runtime/schema"
)

// OutputError is the Err of a result the executor withheld because the
// tool's structured content does not match its Definition.OutputSchema (or
// is missing, or is not a JSON object). The tool ran; what it returned was
// not sent. Violations name each field that is wrong, as the gate words an
// argument's (Param is the field's path), when there are any.
type OutputError struct {
	Tool       string
	Problem    string // the sentence's reason, e.g. "field 'tags' must be an array"
	Violations schema.Violations
}

func (e *OutputError) Error() string {
	return fmt.Sprintf("tool %q: structured output does not match its output schema: %s", e.Tool, e.Problem)
}

// outputGate is the compiled check of one tool's output schema.
type outputGate struct {
	schema uintptr
	v      *schema.Validator
	err    error
	// nullable says, for each property of the schema, whether it accepts
	// null. The gate's validator reads a top-level null as an absent
	// argument; in a result a null is a value, which a client holds to the
	// property's schema (a nil slice encodes as null, not as []).
	nullable map[string]bool
	types    map[string][]string // each property's declared "type"
	closed   bool                // additionalProperties is false
}

// checkOutput holds a successful result of a tool with an output schema to
// that schema, under schema.Warn and schema.Enforce: a result whose
// structured content is missing, is not a JSON object or breaks the schema
// is not sent. It is answered with an error result saying which field is
// wrong (a fault of the tool, logged at ERROR), since a client that reads
// structured content refuses it anyway, and the model would be left
// without the result or with one the host dropped.
func (e *Executor) checkOutput(def Definition, name string, res Result, log callLog) Result {
	if e.mode == schema.Off || def.OutputSchema == nil || res.IsError {
		return res
	}
	problem, vs := e.outputProblem(name, def.OutputSchema, res.Structured, log)
	if problem == "" {
		return res
	}
	err := &OutputError{Tool: name, Problem: problem, Violations: vs}
	log.Error("tool result withheld: its structured output does not match the tool's output schema", "err", err)
	return FailureWith(fmt.Sprintf("Tool '%s' ran, but its result was not sent: %s. This is a fault of the tool, not of the call.", name, problem), err)
}

// outputProblem says what is wrong with structured content v for the
// output schema s, or "" when nothing is.
func (e *Executor) outputProblem(name string, s map[string]any, v any, log callLog) (string, schema.Violations) {
	if v == nil {
		return "it carries no structured content, though the tool declares an output schema", nil
	}
	doc, problem := outputDocument(v)
	if problem != "" {
		return problem, nil
	}
	g := e.outputGate(name, s)
	if g.err != nil {
		log.Warn("tool output not checked: its output schema does not compile", "err", g.err)
		return "", nil
	}
	vs := g.v.Validate(doc)
	if nulls := g.nulls(doc); len(nulls) > 0 {
		// The validator reads a null member as absent, so a required
		// one is "required" as well: it is there, of the wrong type.
		vs = slices.DeleteFunc(vs, func(v schema.Violation) bool {
			return v.Kind == schema.KindRequired && slices.ContainsFunc(nulls, func(n schema.Violation) bool { return n.Param == v.Param })
		})
		vs = append(vs, nulls...)
	}
	if len(vs) == 0 {
		return "", nil
	}
	return "it does not match the tool's output schema (" + outputPhrases(vs) + ")", vs
}

// outputDocument returns structured content as the JSON object a client
// reads: a map[string]any as it is, anything else through encoding/json
// (numbers kept exact), or what is wrong with it.
func outputDocument(v any) (map[string]any, string) {
	if m, ok := v.(map[string]any); ok && m != nil {
		return m, ""
	}
	data, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if data, err = json.Marshal(v); err != nil {
			return nil, "its structured content has no JSON form (" + err.Error() + ")"
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, "its structured content is not a JSON object, as the tool's output schema requires"
	}
	return m, ""
}

// nulls reports the top-level members of doc given as null that their
// property does not accept, and, under additionalProperties false, the
// undeclared ones: the nulls the validator reads as absent.
func (g *outputGate) nulls(doc map[string]any) schema.Violations {
	var out schema.Violations
	for k, val := range doc {
		if val != nil {
			continue
		}
		nullable, declared := g.nullable[k]
		switch {
		case !declared && g.closed:
			out = append(out, schema.Unknown(k, nil))
		case declared && !nullable:
			if t := g.types[k]; len(t) > 0 {
				out = append(out, schema.WrongTypeOf(k, t))
			} else {
				out = append(out, schema.Invalid(k, "null is not allowed here"))
			}
		}
	}
	slices.SortFunc(out, func(a, b schema.Violation) int { return strings.Compare(a.Param, b.Param) })
	return out
}

// outputGate returns the compiled check of a tool's output schema, cached
// while the tool returns the same schema map.
func (e *Executor) outputGate(name string, s map[string]any) *outputGate {
	id := reflect.ValueOf(s).Pointer()
	if c, ok := e.outGates.Load(name); ok {
		if g := c.(*outputGate); g.schema == id {
			return g
		}
	}
	g := &outputGate{schema: id}
	g.v, g.err = compileSafely(s)
	if g.err == nil {
		g.nullable, g.types = nullableProperties(s)
		g.closed = s["additionalProperties"] == false
	}
	e.outGates.Store(name, g)
	return g
}

// nullableProperties judges, for each property of s, whether it accepts
// null, as the gate judges a parameter's null: with its own validator.
func nullableProperties(s map[string]any) (map[string]bool, map[string][]string) {
	props, _ := s["properties"].(map[string]any)
	nullable := make(map[string]bool, len(props))
	types := make(map[string][]string, len(props))
	for k, ps := range props {
		// Required and given as null: refused exactly when the property's
		// schema does not accept null.
		probe := map[string]any{"type": "object", "properties": map[string]any{"x": ps}, "required": []any{"x"}}
		v, err := compileSafely(probe)
		nullable[k] = err == nil && len(v.Validate(map[string]any{"x": nil})) == 0
		if m, ok := ps.(map[string]any); ok {
			switch t := m["type"].(type) {
			case string:
				types[k] = []string{t}
			case []any:
				for _, x := range t {
					if s, ok := x.(string); ok {
						types[k] = append(types[k], s)
					}
				}
			case []string:
				types[k] = t
			}
		}
	}
	return nullable, types
}

// maxOutputPhrases bounds the fields an output error names.
const maxOutputPhrases = 5

// outputPhrases words violations of a result for the sentence: the gate's
// sentences about a field rather than a parameter, without "The tool was
// not executed." (it was), joined by "; ".
func outputPhrases(vs schema.Violations) string {
	var b strings.Builder
	for i, v := range vs {
		if i == maxOutputPhrases {
			b.WriteString("; and " + strconv.Itoa(len(vs)-i) + " more")
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		m := strings.TrimSuffix(strings.TrimSuffix(v.Message, " The tool was not executed."), ".")
		switch {
		case strings.HasPrefix(m, "Parameter '"):
			m = "field '" + strings.TrimPrefix(m, "Parameter '")
		case strings.HasPrefix(m, "Unknown parameter '"):
			m = "unknown field '" + strings.TrimPrefix(m, "Unknown parameter '")
		}
		b.WriteString(m)
	}
	return b.String()
}
