package annotations

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzParseTag checks that ParseTag never panics on any tag value, that it
// is deterministic, that every error points into the tag, and that an
// accepted tag's enum values, bounds and lengths are what was written.
func FuzzParseTag(f *testing.F) {
	for _, s := range []string{
		"", "required", "default=1,min=1,max=100", "enum=space|newline|none", "default='a,b'",
		"default='it''s'", "default='open", "clamp,min=,max=x", "minlen=-1,maxlen=99999999999999999999",
		"required,required", "enum=", "enum=|", "pattern=^a+$", "pattern=(", "format=date-time",
		"format=nope", "minitems=1,maxitems=0", ",,,", "=", "=x", "defualt=1", "default=\x00\xff",
		"  required , clamp ", "default='',min='1'",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		o, errs := ParseTag(tag)
		o2, errs2 := ParseTag(tag)
		if !reflect.DeepEqual(o, o2) || !reflect.DeepEqual(errs, errs2) {
			t.Fatalf("ParseTag(%q) is not deterministic", tag)
		}
		for _, e := range errs {
			if e.Offset < 0 || e.Offset > len(tag) {
				t.Fatalf("ParseTag(%q): error offset %d outside the tag: %s", tag, e.Offset, e.Msg)
			}
			if e.Msg == "" {
				t.Fatalf("ParseTag(%q): error without a message at %d", tag, e.Offset)
			}
		}
		if len(errs) > 0 {
			return
		}
		for _, v := range o.Enum {
			if !strings.Contains(tag, v) {
				t.Fatalf("ParseTag(%q): enum value %q is not in the tag", tag, v)
			}
		}
		for _, n := range []*int{o.MinLen, o.MaxLen, o.MinItems, o.MaxItems} {
			if n != nil && *n < 0 {
				t.Fatalf("ParseTag(%q) accepted a negative length %d", tag, *n)
			}
		}
	})
}

// FuzzParseDirectives checks that ParseDirectives never panics on any doc
// comment, that every error carries the position of a directive line, and
// that an accepted name follows the tool-name grammar.
func FuzzParseDirectives(f *testing.F) {
	for _, s := range []string{
		"//tool:name Echo\n//tool:description Repeats.\n//tool:concurrency safe",
		"//tool:nam Echo", "//tool:name", "//tool:name 9lives", "//tool:concurrency maybe",
		"//tool:subject path", "//tool:subject path a b", "//tool:subject url x", "//tool:enum x",
		"//tool:name A\n//tool:name B", "//tool:description\n//tool:description x",
		"// prose\n//tool:\n//tool: name", "//tool:interrupt externally-terminated\n//tool:loading deferred",
		"//tool:side-effect read-only\n//tool:side-effect\tmutating", "//tool:name \x00\n//tool:name \xff",
		"//tool:keywords taxi, cab\n//tool:keywords ,,", "//tool:keywords",
		"//tool:timeout 30s", "//tool:param digit1 min=0,max=9 The first digit.", "//tool:param a wire=b The a.\n//tool:param a again", "//tool:param", "//tool:param x min=", "//tool:input AddArgs", "//tool:input 1x", "//tool:timeout 1m30s\n//tool:timeout 2s", "//tool:timeout -1h", "//tool:timeout 9999999999h",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var lines []Comment
		directive := map[int]bool{}
		for i, l := range strings.Split(doc, "\n") {
			lines = append(lines, Comment{Pos: Pos{File: "x.go", Line: i + 1, Col: 1}, Text: l})
			directive[i+1] = IsDirective(l)
		}
		d, errs := ParseDirectives(lines)
		for _, e := range errs {
			if e.Pos.File != "x.go" || !directive[e.Pos.Line] {
				t.Fatalf("error at %v, not a directive line: %s", e.Pos, e.Msg)
			}
			if !strings.HasPrefix(e.Msg, "unknown directive //tool:") && !strings.HasPrefix(e.Msg, "//tool:") {
				t.Fatalf("error not naming its directive: %s", e.Msg)
			}
		}
		if d.Name != "" && !toolName.MatchString(d.Name) {
			t.Fatalf("accepted tool name %q", d.Name)
		}
		for i, k := range d.Keywords {
			if k == "" || k != strings.Join(strings.Fields(k), " ") || strings.Contains(k, ",") || slices.Contains(d.Keywords[:i], k) {
				t.Fatalf("accepted keyword %q in %q", k, d.Keywords)
			}
		}
		if d.Subject != nil && (d.Subject.Param == "" || strings.ContainsAny(d.Subject.Param, " \t")) {
			t.Fatalf("accepted subject %+v", *d.Subject)
		}
		_ = Prose(lines)
	})
}
