package schema

import (
	"slices"
	"strings"
)

// Validator is a compiled schema: the gate for one tool's arguments. It is
// immutable and safe for concurrent use.
type Validator struct {
	props       map[string]*property
	names       []string // declared names, sorted: for Unknown's suggestion
	required    []string // required names, in the schema's order, without repeats
	reqNullable []bool   // for each required name: a null value counts as given
	closed      bool     // additionalProperties is false, and no patternProperties
	full        *fullSchema
	incomplete  error // why Validate checks only the fast pass's part; see Incomplete
}

// Validate checks args against the schema and returns what is wrong, nil
// when nothing is. args is the tool call's arguments; a key given as null
// may be there with a nil value (or left out): it counts as absent unless
// the schema accepts null for it. args is only read.
//
// The order is fixed (see the package documentation): the missing required
// parameters in the schema's order, the given parameters in sorted order,
// then what the complete validation adds. Validate never panics; a nil
// Validator accepts everything.
func (v *Validator) Validate(args map[string]any) Violations {
	if v == nil {
		return nil
	}
	if v.ok(args) {
		if v.full == nil {
			return nil
		}
		return v.mergeFull(nil, args)
	}
	out := v.report(args)
	if v.full != nil {
		out = v.mergeFull(out, args)
	}
	return out
}

// mergeFull adds the complete validation's violations to the fast gate's,
// leaving out the sentences already there, sorted by parameter.
func (v *Validator) mergeFull(out Violations, args map[string]any) Violations {
	more := v.validateFull(v.instance(args))

	if len(more) == 0 {
		return out
	}
	seen := make(map[string]bool, len(out)+len(more))
	for _, o := range out {
		seen[o.Message] = true
	}
	start := len(out)
	for _, m := range more {
		if !seen[m.Message] {
			seen[m.Message] = true
			out = append(out, m)
		}
	}
	// Missing parameters first, as the fast gate orders them, then by name.
	slices.SortStableFunc(out[start:], func(a, b Violation) int {
		if ra, rb := a.Kind == KindRequired, b.Kind == KindRequired; ra != rb {
			if ra {
				return -1
			}
			return 1
		}
		if ra := a.Kind == KindRequired; ra {
			return 0
		}
		return strings.Compare(a.Param, b.Param)
	})
	return out
}

// instance returns the arguments as the complete validation reads them:
// JSON values; a null kept where the parameter's schema accepts null and
// dropped (absent) where it does not. tentative lists the nulls of keys no
// property declares, which the validation itself judges.
func (v *Validator) instance(args map[string]any) (inst map[string]any, tentative []string) {
	inst = make(map[string]any, len(args))
	for k, val := range args {
		if classify(val) == jNull {
			p, declared := v.props[k]
			switch {
			case !declared:
				tentative = append(tentative, k)
				inst[k] = nil
			case p.nullable:
				inst[k] = nil
			}
			continue
		}
		inst[k] = jsonValue(val)
	}
	slices.Sort(tentative)
	return inst, tentative
}

// ok is Validate's fast path: true when there is nothing to report. It does
// not allocate for the value types encoding/json produces.
func (v *Validator) ok(args map[string]any) bool {
	for i, name := range v.required {
		if classify(args[name]) == jNull && v.missing(i, args) {
			return false
		}
	}
	for k, val := range args {
		kind := classify(val)
		p, declared := v.props[k]
		if kind == jNull && !(declared && p.nullable) {
			continue // null counts as absent
		}
		if !declared {
			if v.closed {
				return false
			}
			continue
		}
		if p.typeOnly {
			// Most parameters: the type check alone, without a call.
			if kind != jUnknown && !p.mask.accepts(kind) {
				return false
			}
			continue
		}
		if p.violated(val, kind) != 0 {
			return false
		}
	}
	return true
}

// missing reports whether the i-th required parameter, whose value in args
// is null or absent, counts as missing: absent, or null where its schema
// does not accept null.
func (v *Validator) missing(i int, args map[string]any) bool {
	if !v.reqNullable[i] {
		return true
	}
	_, given := args[v.required[i]]
	return !given
}

// report lists the violations in their documented order.
func (v *Validator) report(args map[string]any) Violations {
	var out Violations
	for i, name := range v.required {
		if classify(args[name]) == jNull && v.missing(i, args) {
			out = append(out, v.props[name].required)
		}
	}
	keys := make([]string, 0, len(args))
	for k, val := range args {
		if classify(val) != jNull {
			keys = append(keys, k)
		} else if p, ok := v.props[k]; ok && p.nullable {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		val := args[k]
		p, declared := v.props[k]
		if !declared {
			if v.closed {
				out = append(out, Unknown(k, v.names))
			}
			continue
		}
		kind := classify(val)
		switch p.violated(val, kind) {
		case 0:
		case KindType:
			out = append(out, p.wrong)
		default:
			if p.enum != nil && !p.inEnum(val) {
				out = append(out, NotInEnum(k, p.allowed, render(val, 4*(EchoLimit+1))))
			}
			if p.bounds != nil {
				out = append(out, p.bounds.violations(k, val, kind)...)
			}
		}
	}
	return out
}

// Validate compiles s and validates args against it: a convenience for a
// schema used once. A schema that does not compile validates nothing (nil);
// use [Compile] to learn why.
// Code that validates many calls against one schema should [Compile] it once.
func Validate(s map[string]any, args map[string]any) Violations {
	v, err := Compile(s)
	if err != nil {
		return nil
	}
	return v.Validate(args)
}
