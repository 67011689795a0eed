package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/schema/internal/complete"
)

// typeMask is a set of JSON-schema types.
type typeMask uint8

const (
	maskString typeMask = 1 << iota
	maskInteger
	maskNumber
	maskBoolean
	maskArray
	maskObject
	maskNull

	maskAll = maskString | maskInteger | maskNumber | maskBoolean | maskArray | maskObject | maskNull
)

var typeMasks = map[string]typeMask{
	"string":  maskString,
	"integer": maskInteger,
	"number":  maskNumber,
	"boolean": maskBoolean,
	"array":   maskArray,
	"object":  maskObject,
	"null":    maskNull,
}

// accepts reports whether a value of kind k has one of the types in m.
// Values whose JSON type cannot be told are accepted.
func (m typeMask) accepts(k jsonKind) bool {
	switch k {
	case jString:
		return m&maskString != 0
	case jInteger:
		return m&(maskInteger|maskNumber) != 0
	case jNumber:
		return m&maskNumber != 0
	case jBoolean:
		return m&maskBoolean != 0
	case jArray:
		return m&maskArray != 0
	case jObject:
		return m&maskObject != 0
	case jNull:
		return m&maskNull != 0
	}
	return true
}

// lenientKeys are the keywords whose meaning the fast pass does not
// evaluate; it leaves a property using one to the complete validation (in
// the older drafts "$ref" even hides its siblings).
var lenientKeys = [...]string{"$ref", "oneOf", "anyOf", "allOf", "not"}

// allowedLimit bounds the text of one enum value in a message: schemas are
// trusted, but a Go value can contain itself.
const allowedLimit = 1 << 12

// cut shortens s to limit bytes (at a character boundary) followed by "...".
func cut(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	i := limit
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// property is the compiled check of one declared parameter.
type property struct {
	check    bool      // false: the gate lets any value through
	mask     typeMask  // the accepted types
	required Violation // the sentence when it is required and missing
	wrong    Violation // the sentence for a value of the wrong type
	enum     []any     // nil: no enum check
	allowed  []string  // enum rendered for the message
	nullable bool      // the schema accepts null: a null value is given, not absent
	bounds   *bounds   // nil: no const, range, length or pattern check
	typeOnly bool      // checked, and by its type alone
}

// bounds are a property's checks beyond type and enum: "const", the numeric
// ranges, lengths and sizes, and "pattern". Each applies to values of its
// own type only, as in JSON Schema.
type bounds struct {
	hasConst bool
	constVal any
	constMsg string // the const value rendered for the message

	min, max, exMin, exMax *bound
	// floatOK: every numeric bound is exact as a float64, so a float64
	// value compares with floatMin/floatMax directly (the common case:
	// arguments decoded by encoding/json).
	floatOK            bool
	floatMin, floatMax float64 // -Inf/+Inf: none

	minLen, maxLen     int // -1: none
	minItems, maxItems int // -1: none

	pattern     *regexp.Regexp
	patternText string
}

// bound is a numeric limit and its exact text.
type bound struct {
	n    number
	text string
}

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

// Compile reads a tool's input schema into a [Validator].
//
// It fails for a schema that is not a valid JSON schema, or that refers to
// a document outside itself (see the package documentation); the error
// says where. The fast pass's own reading fails first, with its own words,
// for "properties" that is not an object, "required" that is not a list of
// strings, or a property schema that is neither an object nor a boolean. A
// null keyword at the top counts as absent, and a nil schema compiles to a
// validator that accepts any arguments.
//
// Where the schema needs the complete validation (see the package
// documentation), Compile compiles it, if the program links it (package
// runtime/schema/full); if not, the Validator checks the fast pass's
// part and [Validator.Incomplete] says why it is not complete.
//
// The schema is only read, never modified. The Validator shares the schema's
// enum values (it copies the lists, not the values in them), so a schema
// must not be changed while its Validator is in use.
func Compile(s map[string]any) (*Validator, error) {
	v, err := compileFast(s)
	if err != nil || s == nil {
		return v, err
	}
	doc, why, err := readSchema(s)
	if err != nil {
		return nil, err
	}
	if why != "" {
		if c := complete.Registered(); c != nil {
			sch, err := c(doc, v.names)
			if err != nil {
				return nil, fmt.Errorf("schema: %w", err)
			}
			v.full = &fullSchema{sch: sch, doc: doc}
		} else {
			v.incomplete = incompleteError(why)
		}
	}
	props, _ := propertiesOf(doc)
	for name, p := range v.props {
		ps, declared := props[name]
		switch {
		case !declared:
			p.nullable = true // required but not described: any value
		case v.full != nil:
			n, ok := v.full.sch.Nullable(name)
			if !ok {
				n = staticNullable(ps)
			}
			p.nullable = n
		default:
			p.nullable = staticNullable(ps)
		}
	}
	v.reqNullable = make([]bool, len(v.required))
	for i, name := range v.required {
		v.reqNullable[i] = v.props[name].nullable
	}
	return v, nil
}

// readSchema reads s as the complete validation would: normalized, checked
// for the shape of its keywords, with why the fast pass alone does not
// decide it ("" when it does).
func readSchema(s map[string]any) (doc any, why string, err error) {
	doc, err = normalize(s)
	if err != nil {
		return nil, "", err
	}
	if err := wellFormed(doc); err != nil {
		return nil, "", err
	}
	return doc, uncovered(doc), nil
}

// incompleteError says that a schema needs the complete validation, which
// is not linked, and how to link it.
func incompleteError(why string) error {
	return fmt.Errorf("%w: the schema uses %s; import _ %q to link it", ErrIncomplete, why, fullPackage)
}

// compileFast reads what the fast pass checks.
func compileFast(s map[string]any) (*Validator, error) {
	v := &Validator{props: map[string]*property{}}
	var names []string
	if raw, ok := s["properties"]; ok && raw != nil {
		props, ok := asObject(raw)
		if !ok {
			return nil, fmt.Errorf(`schema: "properties" must be an object, got %s`, typeName(raw))
		}
		names = make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			p, err := compileProperty(name, props[name])
			if err != nil {
				return nil, err
			}
			v.props[name] = p
		}
	}
	if raw, ok := s["required"]; ok && raw != nil {
		list, err := requiredList(raw)
		if err != nil {
			return nil, err
		}
		added := false
		for _, name := range list {
			if slices.Contains(v.required, name) {
				continue
			}
			v.required = append(v.required, name)
			if _, ok := v.props[name]; !ok {
				// Required but not described: declared, and not checked.
				v.props[name] = &property{required: Required(name, "")}
				names = append(names, name)
				added = true
			}
		}
		if added {
			slices.Sort(names)
		}
	}
	v.names = names
	if ap, ok := s["additionalProperties"].(bool); ok && !ap {
		// Names matching "patternProperties" are declared too: the
		// complete validation judges them.
		_, patterns := s["patternProperties"]
		v.closed = !patterns
	}
	return v, nil
}

// ErrIncomplete is wrapped by the error [Validator.Incomplete] returns
// for a schema that only the complete validation decides, in a program
// that does not link it.
var ErrIncomplete = errors.New("schema: only the complete JSON Schema validator checks this schema, and it is not linked")

// Incomplete returns nil when [Validator.Validate] decides every call as
// JSON Schema does. It returns an error wrapping [ErrIncomplete] when the
// schema uses what only the complete validation checks and the program
// does not link it (package runtime/schema/full, by import): the error
// names the first such keyword and the package to import, and Validate
// then checks the fast pass's part alone.
func (v *Validator) Incomplete() error {
	if v == nil {
		return nil
	}
	return v.incomplete
}

// Check reads s as [Compile] does without compiling the complete
// validation: it returns the error Compile's own reading finds (a
// malformed "properties", "required" or keyword), else an error wrapping
// [ErrIncomplete] when s needs the complete validation and the program
// does not link it, else nil. It is cheap enough to run for every tool
// registered; a schema's references and composite keywords are checked
// by Compile, when the complete validation is linked.
func Check(s map[string]any) error {
	if _, err := compileFast(s); err != nil || s == nil {
		return err
	}
	_, why, err := readSchema(s)
	if err != nil {
		return err
	}
	if why != "" && complete.Registered() == nil {
		return incompleteError(why)
	}
	return nil
}

func compileProperty(name string, raw any) (*property, error) {
	if _, ok := raw.(bool); ok {
		return &property{required: Required(name, "")}, nil
	}
	ps, ok := asObject(raw)
	if !ok {
		return nil, fmt.Errorf("schema: property %q must be an object, got %s", name, typeName(raw))
	}
	p := &property{check: true}

	// The declared types. An unknown name, a malformed "type" or no "type"
	// at all turns the check off.
	var types []string
	switch t := ps["type"].(type) {
	case string:
		types = []string{t}
	case nil:
		if _, has := ps["type"]; has {
			p.check = false
		} else {
			p.mask = maskAll // no type: any value, still held to the rest
		}
	default:
		list, ok := stringsOf(t)
		if !ok || len(list) == 0 {
			p.check = false
		}
		types = list
	}
	for _, t := range types {
		m, known := typeMasks[t]
		if !known {
			p.check = false
			types = nil
			break
		}
		p.mask |= m
	}
	if len(types) == 1 {
		p.required = Required(name, types[0])
		p.wrong = WrongType(name, types[0])
	} else {
		p.required = RequiredOf(name, types)
		p.wrong = WrongTypeOf(name, types)
	}

	for _, k := range lenientKeys {
		if _, ok := ps[k]; ok {
			p.check = false
		}
	}
	if !p.check {
		return p, nil
	}

	if list, ok := listOf(ps["enum"]); ok && len(list) > 0 {
		p.enum = slices.Clone(list)
		p.allowed = make([]string, len(list))
		for i, e := range list {
			p.allowed[i] = cut(render(e, allowedLimit), allowedLimit)
		}
	}
	p.bounds = compileBounds(ps)
	p.typeOnly = p.check && p.enum == nil && p.bounds == nil
	return p, nil
}

// compileBounds reads the checks beyond type and enum; nil when there are
// none. Keywords of the wrong shape are left to the complete validation,
// which refuses the schema.
func compileBounds(ps map[string]any) *bounds {
	b := &bounds{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
	found := false
	if c, ok := ps["const"]; ok {
		b.hasConst, b.constVal = true, c
		b.constMsg = cut(render(c, allowedLimit), allowedLimit)
		found = true
	}
	for _, k := range [...]struct {
		key string
		dst **bound
	}{{"minimum", &b.min}, {"maximum", &b.max}, {"exclusiveMinimum", &b.exMin}, {"exclusiveMaximum", &b.exMax}} {
		if raw, ok := ps[k.key]; ok {
			if n, ok := toNumber(raw); ok && classify(raw) != jUnknown {
				*k.dst = &bound{n: n, text: boundText(raw, n)}
				found = true
			}
		}
	}
	for _, k := range [...]struct {
		key string
		dst *int
	}{{"minLength", &b.minLen}, {"maxLength", &b.maxLen}, {"minItems", &b.minItems}, {"maxItems", &b.maxItems}} {
		if raw, ok := ps[k.key]; ok {
			if n, ok := toNumber(raw); ok && n.exact && n.i >= 0 && n.i <= math.MaxInt32 {
				*k.dst = int(n.i)
				found = true
			}
		}
	}
	if pat, ok := ps["pattern"].(string); ok {
		if re, err := regexp.Compile(pat); err == nil {
			b.pattern, b.patternText = re, pat
			found = true
		}
	}
	if !found {
		return nil
	}
	b.floatOK = b.exMin == nil && b.exMax == nil
	b.floatMin, b.floatMax = math.Inf(-1), math.Inf(1)
	for _, x := range [...]struct {
		b   *bound
		dst *float64
	}{{b.min, &b.floatMin}, {b.max, &b.floatMax}} {
		if x.b == nil {
			continue
		}
		if x.b.n.exact && (x.b.n.i > 1<<53 || x.b.n.i < -(1<<53)) {
			b.floatOK = false // a float64 cannot tell it from its neighbours
		}
		*x.dst = x.b.n.f
	}
	return b
}

// boundText writes a bound from the schema exactly: an integer in full
// (a float64 cannot hold every int64 or uint64), other numbers as
// encoding/json writes them.
func boundText(raw any, n number) string {
	switch x := raw.(type) {
	case json.Number:
		if s := string(x); IsJSONNumber(s) && !strings.ContainsAny(s, ".eE") {
			return s
		}
	case uint:
		return strconv.FormatUint(uint64(x), 10)
	case uint64:
		return strconv.FormatUint(x, 10)
	}
	if n.exact {
		return strconv.FormatInt(n.i, 10)
	}
	return formatNumber(n.f)
}

// less reports a < b.
func (a number) less(b number) bool {
	if a.exact && b.exact {
		return a.i < b.i
	}
	return a.f < b.f
}

// broken returns the first check of b that val (of kind k) breaks, or 0.
func (b *bounds) broken(val any, k jsonKind) Kind {
	if b.hasConst && !jsonEqual(b.constVal, val) {
		return KindEnum
	}
	switch k {
	case jInteger, jNumber:
		if f, isFloat := val.(float64); isFloat && b.floatOK {
			switch {
			case f < b.floatMin:
				return KindMinimum
			case f > b.floatMax:
				return KindMaximum
			}
			return 0
		}
		n, ok := toNumber(val)
		if !ok {
			return 0
		}
		switch {
		case b.min != nil && n.less(b.min.n), b.exMin != nil && !b.exMin.n.less(n):
			return KindMinimum
		case b.max != nil && b.max.n.less(n), b.exMax != nil && !n.less(b.exMax.n):
			return KindMaximum
		}
	case jString:
		if b.minLen < 0 && b.maxLen < 0 && b.pattern == nil {
			return 0
		}
		s, ok := toString(val)
		if !ok {
			return 0
		}
		if b.minLen >= 0 || b.maxLen >= 0 {
			n := utf8.RuneCountInString(s)
			if n < b.minLen {
				return KindMinLength
			}
			if b.maxLen >= 0 && n > b.maxLen {
				return KindMaxLength
			}
		}
		if b.pattern != nil && !b.pattern.MatchString(s) {
			return KindPattern
		}
	case jArray:
		if b.minItems < 0 && b.maxItems < 0 {
			return 0
		}
		n, ok := arrayLen(val)
		if !ok {
			return 0
		}
		if n < b.minItems {
			return KindMinItems
		}
		if b.maxItems >= 0 && n > b.maxItems {
			return KindMaxItems
		}
	}
	return 0
}

// violations words every check of b that val breaks.
func (b *bounds) violations(name string, val any, k jsonKind) Violations {
	var out Violations
	if b.hasConst && !jsonEqual(b.constVal, val) {
		out = append(out, NotConst(name, b.constMsg, render(val, 4*(EchoLimit+1))))
	}
	switch k {
	case jInteger, jNumber:
		n, ok := toNumber(val)
		if !ok {
			break
		}
		if b.min != nil && n.less(b.min.n) {
			out = append(out, atLeast(KindMinimum, name, "at least", b.min.text))
		}
		if b.exMin != nil && !b.exMin.n.less(n) {
			out = append(out, atLeast(KindMinimum, name, "greater than", b.exMin.text))
		}
		if b.max != nil && b.max.n.less(n) {
			out = append(out, atLeast(KindMaximum, name, "at most", b.max.text))
		}
		if b.exMax != nil && !n.less(b.exMax.n) {
			out = append(out, atLeast(KindMaximum, name, "less than", b.exMax.text))
		}
	case jString:
		s, ok := toString(val)
		if !ok {
			break
		}
		n := utf8.RuneCountInString(s)
		if n < b.minLen {
			out = append(out, TooShort(name, b.minLen))
		}
		if b.maxLen >= 0 && n > b.maxLen {
			out = append(out, TooLong(name, b.maxLen))
		}
		if b.pattern != nil && !b.pattern.MatchString(s) {
			out = append(out, PatternMismatch(name, b.patternText))
		}
	case jArray:
		n, ok := arrayLen(val)
		if !ok {
			break
		}
		if n < b.minItems {
			out = append(out, TooFewItems(name, b.minItems))
		}
		if b.maxItems >= 0 && n > b.maxItems {
			out = append(out, TooManyItems(name, b.maxItems))
		}
	}
	return out
}

// arrayLen returns the number of items of an array value.
func arrayLen(v any) (int, bool) {
	switch x := v.(type) {
	case []any:
		return len(x), true
	case []string:
		return len(x), true
	}
	items, ok := elements(v)
	return len(items), ok
}

// requiredList reads "required".
func requiredList(raw any) ([]string, error) {
	if list, ok := stringsOf(raw); ok {
		return list, nil
	}
	if items, ok := listOf(raw); ok {
		for i, it := range items {
			if _, ok := it.(string); !ok {
				return nil, fmt.Errorf(`schema: "required" must be a list of strings, got %s at index %d`, typeName(it), i)
			}
		}
	}
	return nil, fmt.Errorf(`schema: "required" must be a list of strings, got %s`, typeName(raw))
}

// asObject reads a schema object: map[string]any, or another map with string
// keys (as a Go literal may hold).
func asObject(v any) (map[string]any, bool) {
	if m, ok := v.(map[string]any); ok {
		return m, m != nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String || rv.IsNil() {
		return nil, false
	}
	return members(v)
}

// listOf reads a list: []any or any other slice or array.
func listOf(v any) ([]any, bool) {
	if l, ok := v.([]any); ok {
		return l, true
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Slice, reflect.Array:
		return elements(v)
	}
	return nil, false
}

// stringsOf reads a list of strings.
func stringsOf(v any) ([]string, bool) {
	if l, ok := v.([]string); ok {
		return l, true
	}
	items, ok := listOf(v)
	if !ok {
		return nil, false
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
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

// violated returns the kind of the property's violation by val, or 0.
func (p *property) violated(val any, kind jsonKind) Kind {
	if !p.check || kind == jUnknown {
		return 0
	}
	if !p.mask.accepts(kind) {
		return KindType
	}
	if p.enum != nil && !p.inEnum(val) {
		return KindEnum
	}
	if p.bounds != nil {
		return p.bounds.broken(val, kind)
	}
	return 0
}

func (p *property) inEnum(val any) bool {
	if s, ok := val.(string); ok {
		for _, e := range p.enum {
			if es, ok := e.(string); ok {
				if es == s {
					return true
				}
			} else if jsonEqual(e, val) {
				return true
			}
		}
		return false
	}
	for _, e := range p.enum {
		if jsonEqual(e, val) {
			return true
		}
	}
	return false
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
