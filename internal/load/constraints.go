package load

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/model"
	"github.com/toolgen/toolgen/runtime/toolimpl"
)

// constraints checks a field's tag options against its type and stores
// them in the field. pos is the position of the tag's value.
func (b *builder) constraints(f *model.Field, o annotations.Options, pos annotations.Pos, goName string) {
	fail := func(format string, args ...any) {
		b.errs.Add(pos, "field %s: "+format, append([]any{goName}, args...)...)
	}
	typ := f.Type.Scalar()
	target := typ // what scalar constraints apply to
	container := typ.Kind == model.Slice || typ.Kind == model.Array || typ.Kind == model.Map
	if container {
		target = typ.Elem.Scalar()
	}
	tname := describe(target)
	c := &f.Constraints
	f.Required = o.Required

	// enum
	switch {
	case o.Enum != nil && target.Kind != model.String:
		fail("enum needs a string field (or a slice or map of strings), not %s", tname)
	case o.Enum != nil && target.Enum != nil:
		fail("enum is already given by the type's //tool:enum constants; remove the enum option")
	case o.Enum != nil:
		c.Enum = o.Enum
	case target.Enum != nil:
		c.Enum = target.Enum
	}

	// numbers
	num := func(key string, text *string) *model.Number {
		if text == nil {
			return nil
		}
		switch target.Kind {
		case model.Int, model.Uint, model.Float:
		default:
			fail("%s needs a number field (or a slice or map of numbers), not %s", key, tname)
			return nil
		}
		v, ok := parseNumber(*text, target)
		if !ok {
			fail("%s=%s is not %s", key, *text, article(target))
			return nil
		}
		return &model.Number{Text: *text, Value: v}
	}
	c.Min = num("min", o.Min)
	c.Max = num("max", o.Max)
	if c.Min != nil && c.Max != nil && c.Min.Value > c.Max.Value {
		fail("min=%s is greater than max=%s", c.Min.Text, c.Max.Text)
	}
	if o.Clamp {
		switch {
		case o.Min == nil && o.Max == nil:
			fail("clamp needs min or max")
		case container:
			fail("clamp applies to a number field, not to a slice or map")
		}
		c.Clamp = true
	}

	// strings
	length := func(key string, n *int) *int {
		if n != nil && target.Kind != model.String {
			fail("%s needs a string field, not %s", key, tname)
			return nil
		}
		return n
	}
	c.MinLen = length("minlen", o.MinLen)
	c.MaxLen = length("maxlen", o.MaxLen)
	if c.MinLen != nil && c.MaxLen != nil && *c.MinLen > *c.MaxLen {
		fail("minlen=%d is greater than maxlen=%d", *c.MinLen, *c.MaxLen)
	}
	if o.Pattern != nil {
		if target.Kind != model.String {
			fail("pattern needs a string field, not %s", tname)
		} else if _, err := regexp.Compile(*o.Pattern); err != nil {
			fail("pattern %q does not compile: %v", *o.Pattern, err)
		} else {
			c.Pattern = *o.Pattern
		}
	}
	if o.Format != "" {
		if target.Kind != model.String {
			fail("format needs a string field, not %s (time.Time and time.Duration have their format already)", tname)
		} else {
			c.Format = o.Format
		}
	}
	if c.Enum != nil && (c.MinLen != nil || c.MaxLen != nil || c.Pattern != "" || c.Format != "") {
		fail("enum already fixes the values; remove minlen, maxlen, pattern and format")
	}

	// items
	items := func(key string, n *int) *int {
		if n != nil && typ.Kind != model.Slice {
			fail("%s needs a slice field, not %s (an array's length is fixed)", key, describe(typ))
			return nil
		}
		return n
	}
	c.MinItems = items("minitems", o.MinItems)
	c.MaxItems = items("maxitems", o.MaxItems)
	if c.MinItems != nil && c.MaxItems != nil && *c.MinItems > *c.MaxItems {
		fail("minitems=%d is greater than maxitems=%d", *c.MinItems, *c.MaxItems)
	}

	// default
	if o.Default != nil {
		if o.Required {
			fail("required and default exclude each other; a field with a default is optional")
			return
		}
		if f.Type.Kind == model.Pointer {
			fail("default on a pointer field: a pointer is nil when absent; use a non-pointer type or drop the default")
			return
		}
		d, msg := parseDefault(*o.Default, f.Type, c)
		if msg != "" {
			fail("default=%s %s", *o.Default, msg)
			return
		}
		f.Default = d
	}
}

func describe(t *model.Type) string {
	switch t.Kind {
	case model.Int:
		return "an integer"
	case model.Uint:
		return "an unsigned integer"
	case model.Float:
		return "a float"
	case model.String:
		return "a string"
	case model.Bool:
		return "a bool"
	case model.Struct:
		return "a struct"
	case model.Slice:
		return "a slice"
	case model.Array:
		return "an array"
	case model.Map:
		return "a map"
	case model.Any:
		return "any"
	case model.Raw:
		return "json.RawMessage"
	case model.Time:
		return "time.Time"
	case model.Duration:
		return "time.Duration"
	}
	return t.Kind.String()
}

func article(t *model.Type) string {
	switch t.Kind {
	case model.Int:
		return "an integer that fits " + intName("int", t.Bits)
	case model.Uint:
		return "an unsigned integer that fits " + intName("uint", t.Bits)
	case model.Float:
		return "a finite number"
	}
	return describe(t)
}

func intName(base string, bits int) string {
	if bits == 0 {
		return base
	}
	return base + strconv.Itoa(bits)
}

// parseNumber parses a bound or default for a numeric type.
func parseNumber(s string, t *model.Type) (float64, bool) {
	bits := t.Bits
	if bits == 0 {
		bits = strconv.IntSize
	}
	switch t.Kind {
	case model.Int:
		n, err := strconv.ParseInt(s, 10, bits)
		return float64(n), err == nil
	case model.Uint:
		n, err := strconv.ParseUint(s, 10, bits)
		return float64(n), err == nil
	case model.Float:
		f, err := strconv.ParseFloat(s, bits)
		return f, err == nil && !math.IsInf(f, 0) && !math.IsNaN(f)
	}
	return 0, false
}

// parseDefault parses a default for t and checks it against the field's
// constraints; it returns a message saying what is wrong.
func parseDefault(s string, t *model.Type, c *model.Constraints) (any, string) {
	inRange := func(v float64) string {
		if c.Min != nil && v < c.Min.Value {
			return "is below min=" + c.Min.Text
		}
		if c.Max != nil && v > c.Max.Value {
			return "is above max=" + c.Max.Text
		}
		return ""
	}
	switch t.Kind {
	case model.String:
		if c.Enum != nil && !slices.Contains(c.Enum, s) {
			return nil, "is not one of the enum values " + strings.Join(c.Enum, ", ")
		}
		n := utf8.RuneCountInString(s)
		if c.MinLen != nil && n < *c.MinLen {
			return nil, "is shorter than minlen=" + strconv.Itoa(*c.MinLen)
		}
		if c.MaxLen != nil && n > *c.MaxLen {
			return nil, "is longer than maxlen=" + strconv.Itoa(*c.MaxLen)
		}
		if c.Pattern != "" && !regexp.MustCompile(c.Pattern).MatchString(s) {
			return nil, "does not match pattern " + c.Pattern
		}
		if c.Format != "" && !toolimpl.HasFormat(s, string(c.Format)) {
			return nil, "is not a valid " + string(c.Format)
		}
		return s, ""
	case model.Bool:
		v, err := strconv.ParseBool(s)
		if err != nil || (s != "true" && s != "false") {
			return nil, "is not a bool; want true or false"
		}
		return v, ""
	case model.Int:
		bits := cmpOr(t.Bits, strconv.IntSize)
		v, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			return nil, "is not " + article(t)
		}
		return v, inRange(float64(v))
	case model.Uint:
		bits := cmpOr(t.Bits, strconv.IntSize)
		v, err := strconv.ParseUint(s, 10, bits)
		if err != nil {
			return nil, "is not " + article(t)
		}
		return v, inRange(float64(v))
	case model.Float:
		v, ok := parseNumber(s, t)
		if !ok {
			return nil, "is not " + article(t)
		}
		return v, inRange(v)
	case model.Duration:
		if _, err := time.ParseDuration(s); err != nil {
			return nil, "is not a Go duration such as 30s or 1m30s"
		}
		return s, ""
	case model.Time:
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return nil, "is not an RFC 3339 date-time such as 2006-01-02T15:04:05Z"
		}
		return s, ""
	}
	return nil, "is not supported on " + describe(t) + " fields; defaults are for string, bool, number, time.Time and time.Duration fields"
}

func cmpOr(a, b int) int {
	if a != 0 {
		return a
	}
	return b
}
