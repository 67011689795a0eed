package schema

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

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
