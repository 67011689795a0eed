package annotations

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// TagKey is the struct tag key toolgen reads options from.
const TagKey = "tool"

// Options are the options of one field's tool tag, as written. Values that
// depend on the field's type (default, min, max) stay text here; the loader
// checks them against the type.
type Options struct {
	Required bool
	Clamp    bool
	Enum     []string // nil when absent
	Default  *string
	Min, Max *string
	MinLen   *int
	MaxLen   *int
	MinItems *int
	MaxItems *int
	Pattern  *string
	Format   Format
}

// A TagError is a mistake in a tool tag, at a byte offset into the tag's
// value.
type TagError struct {
	Offset int
	Msg    string
}

var optionNames = []string{"clamp", "default", "enum", "format", "max", "maxitems", "maxlen", "min", "minitems", "minlen", "pattern", "required"}

// ParseTag parses the value of a tool tag (the text between the quotes of
// tool:"...") and reports every mistake.
//
// Options are separated by commas. A value runs to the next comma, or is
// single-quoted to hold commas: default='a,b'. Inside quotes, two single
// quotes stand for one: default='it”s'.
func ParseTag(tag string) (Options, []TagError) {
	var o Options
	var errs []TagError
	fail := func(off int, format string, args ...any) {
		errs = append(errs, TagError{Offset: off, Msg: fmt.Sprintf(format, args...)})
	}
	seen := map[string]bool{}
	// enumRun is an enum option's value and the items after it that have
	// no value and name no option, joined with '|' (enum=a,b,c is a|b|c);
	// "" when the item before was not such.
	enumRun := ""
	i := 0
	for i <= len(tag) {
		start := i
		// The key runs to '=' or ','.
		j := i
		for j < len(tag) && tag[j] != '=' && tag[j] != ',' {
			j++
		}
		key := strings.TrimSpace(tag[i:j])
		var val string
		hasVal := false
		if j < len(tag) && tag[j] == '=' {
			hasVal = true
			k := j + 1
			if k < len(tag) && tag[k] == '\'' {
				var b strings.Builder
				k++
				closed := false
				for k < len(tag) {
					if tag[k] == '\'' {
						if k+1 < len(tag) && tag[k+1] == '\'' {
							b.WriteByte('\'')
							k += 2
							continue
						}
						closed = true
						k++
						break
					}
					b.WriteByte(tag[k])
					k++
				}
				if !closed {
					fail(j+1, "option %s: unterminated quoted value; end it with '", key)
					return o, errs
				}
				if k < len(tag) && tag[k] != ',' {
					fail(k, "option %s: want ',' after the closing quote", key)
					for k < len(tag) && tag[k] != ',' {
						k++
					}
				}
				val = b.String()
				j = k
			} else {
				for k < len(tag) && tag[k] != ',' {
					k++
				}
				val = tag[j+1 : k]
				j = k
			}
		}
		i = j + 1
		if key == "" {
			if hasVal || j < len(tag) || start < len(tag) {
				fail(start, "empty option; remove the extra comma")
			}
			if j >= len(tag) {
				break
			}
			continue
		}
		if !slices.Contains(optionNames, key) {
			s, near := closest(key, optionNames)
			switch {
			case near:
				fail(start, "unknown option %q; did you mean %q?", key, s)
			case enumRun != "" && !hasVal:
				// enum=a,b: the comma ended the enum.
				enumRun += "|" + key
				fail(start, "unknown option %q; separate enum values with '|': enum=%s", key, enumRun)
				continue
			default:
				fail(start, "unknown option %q; want one of %s", key, strings.Join(optionNames, ", "))
			}
			enumRun = ""
			continue
		}
		enumRun = ""
		if key == "enum" {
			enumRun = val
		}
		if seen[key] {
			fail(start, "option %s given more than once; keep one", key)
			continue
		}
		seen[key] = true
		switch key {
		case "required", "clamp":
			if hasVal {
				fail(start, "option %s takes no value; write %s", key, key)
				continue
			}
			if key == "required" {
				o.Required = true
			} else {
				o.Clamp = true
			}
			continue
		}
		if !hasVal {
			fail(start, "option %s needs a value, e.g. %s", key, example(key))
			continue
		}
		switch key {
		case "default":
			o.Default = &val
		case "min":
			o.Min = &val
		case "max":
			o.Max = &val
		case "pattern":
			if val == "" {
				fail(start, "option pattern needs a regular expression, e.g. %s", example(key))
				continue
			}
			o.Pattern = &val
		case "enum":
			vals := strings.Split(val, "|")
			if slices.Contains(vals, "") {
				fail(start, "option enum: empty value in %q; separate values with single '|'", val)
				continue
			}
			if d := firstDup(vals); d != "" {
				fail(start, "option enum: value %q listed twice", d)
				continue
			}
			o.Enum = vals
		case "format":
			f := Format(val)
			if !slices.Contains(Formats, f) {
				names := make([]string, len(Formats))
				for i, f := range Formats {
					names[i] = string(f)
				}
				fail(start, "option format: unknown format %q; want one of %s", val, strings.Join(names, ", "))
				continue
			}
			o.Format = f
		case "minlen", "maxlen", "minitems", "maxitems":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				fail(start, "option %s: %q is not a non-negative integer", key, val)
				continue
			}
			switch key {
			case "minlen":
				o.MinLen = &n
			case "maxlen":
				o.MaxLen = &n
			case "minitems":
				o.MinItems = &n
			case "maxitems":
				o.MaxItems = &n
			}
		}
	}
	return o, errs
}

func example(key string) string {
	switch key {
	case "default":
		return "default=10"
	case "enum":
		return "enum=a|b|c"
	case "format":
		return "format=date-time"
	case "pattern":
		return "pattern='^[a-z]+$'"
	}
	return key + "=1"
}

func firstDup(vals []string) string {
	seen := map[string]bool{}
	for _, v := range vals {
		if seen[v] {
			return v
		}
		seen[v] = true
	}
	return ""
}

// Closest returns the candidate nearest to s by edit distance when it is
// near enough to be a typo. The loader uses it to suggest names.
func Closest(s string, candidates []string) (string, bool) { return closest(s, candidates) }

// GeneratedSuffix ends the name of every file toolgen writes (before
// "_test.go" for files generated from test files).
const GeneratedSuffix = "_toolgen"

// GeneratedName returns the name of the file generated from the source
// file name: echo.go gives echo_toolgen.go and echo_test.go gives
// echo_toolgen_test.go, so a generated test file is compiled only with
// the tests it belongs to.
func GeneratedName(source string) string {
	if base, ok := strings.CutSuffix(source, "_test.go"); ok {
		return base + GeneratedSuffix + "_test.go"
	}
	return strings.TrimSuffix(source, ".go") + GeneratedSuffix + ".go"
}

// IsGeneratedName reports whether a file name matches the pattern of the
// files toolgen writes.
func IsGeneratedName(name string) bool {
	return strings.HasSuffix(name, GeneratedSuffix+".go") || strings.HasSuffix(name, GeneratedSuffix+"_test.go")
}

// HeaderPrefix starts the first line of every file toolgen writes; the
// whole line is "// Code generated by toolgen from <source>. DO NOT EDIT."
const HeaderPrefix = "// Code generated by toolgen"
