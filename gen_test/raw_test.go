package gentest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/examples/quickstart/echo"
	"github.com/toolgen/toolgen/gen_test/grep"
	"github.com/toolgen/toolgen/gen_test/kitchen"
	"github.com/toolgen/toolgen/runtime/jsonscan"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// kitchenSeeds are kitchen arguments that reach every branch of its
// binders: valid values, every kind of violation, escapes and duplicates.
var kitchenSeeds = []string{
	`{"file_path":"/a"}`,
	`{"file_path": "/tmp/x", "dir": "/w", "verbose": true, "level": "warn", "-i": true, "-A": 3,
		"limit": 99, "i8": -128, "i16": 300, "i32": 7, "i64": -5, "u": 1, "u8": 200, "u16": 2, "u32": 3,
		"u64": 9007199254740992, "f32": 1.5, "f64": 0.25, "opt": 4, "opt_s": "s",
		"edits": [{"old_string": "a", "new_string": "b", "replace_all": true}],
		"tags": ["x", "z"], "pair": [1, 2], "env": {"k": "abc"}, "counts": {"a": 1},
		"at": {"x": 1, "y": 2}, "other": {"x": 3, "y": 4, "unit": "ft"}, "units": ["in"],
		"levels": {"a": "debug"}, "options": {"depth": 7}, "raw": {"b": [1, null], "a": "<&>"}, "any": [1, "x"],
		"when": "2024-05-06T07:08:09Z", "timeout": "2s", "day": "2024-05-06", "clock": "10:11:12",
		"stamp": "2024-05-06T07:08:09+02:00", "span": "3h", "email": "a@b.example", "link": "https://x.example/y",
		"id": "123e4567-e89b-12d3-a456-426614174000"}`,
	`{"-i": "yes", "-A": 11, "i8": 128, "u": -1, "u8": 201, "f32": 1e39, "note": "this note is much too long"}`,
	`{"file_path": "/a", "edits": [{"old_string": "", "new_string": 1, "replace_all": null}, {"old_strin": "x", "new_string": "y"}], "env": {"K": "UP"}, "at": {"x": "1"}, "tags": ["x", null, "w"]}`,
	`{"file_path": "a,b", "edits": [], "pair": [1], "when": "yesterday", "timeout": "soon", "day": "2024-13-01", "clock": "25:00:00", "stamp": "now", "span": "1 hour", "email": "nobody", "link": "relative/path", "id": "xyz", "level": "trace", "units": ["mile"], "i64": -6, "f64": 2.5, "i16": 3.5}`,
	`{"file_path": "/a", "edits": {}, "env": [], "at": 1, "options": "x", "pair": "x"}`,
	`{"file_path": "/a", "limit": 1e300, "i64": "12", "u": " 7 ", "f32": "1e39", "opt": 2.0, "u8": "-1", "i8": "3.5"}`,
	`{"file_path": "/a", "options": {}, "limit": -3, "zzz": null, "env": {"a": null}, "counts": {"b": 1.5, "a": -1}}`,
	`{"fil\u0065_path": "/\u00e9\ud83d\ude00\ud800x", "note": "a\"b\\c\/d\b\f\n\r\t", "level": "\u0069nfo"}`,
	`{"file_path": "/a", "at": {"x": 1, "y": 2, "unit": "mile", "z": null}, "other": null, "options": {"depth": "2", "more": 1}}`,
	`{"file_path": "/a", "file_path": "/b"}`,
	`{"file_path": "/a", "at": {"x": 1, "x": 2, "y": 3}, "edits": [{"old_string": "a", "new_string": "b", "new_string": "c"}]}`,
	`{"file_path": "/a", "u64": 18446744073709551615, "i64": -9223372036854775808, "u32": 4294967296}`,
	`{"file_path": "/a"} x`, `[1]`, `{"a":1e400}`, `{"a":01}`, "{\"a\":\"\x01\"}", `{"a":"\x"}`,
}

var grepSeeds = []string{
	string(grepArgs),
	`{"path": 3, "output_mode": "lines", "-A": -1, "offset": 1.5, "extra": true}`,
	`{"pattern": "x", "-i": "true", "head_limit": "10", "-C": 1e30, "-B": 9223372036854775808}`,
	`{"pattern": "x", "pattern": "y"}`,
}

var echoSeeds = []string{
	`{"message":"hi"}`, `{"message":"hi","times":"2"}`, `{"times":2.5,"sep":"tab","mesage":"x"}`, `{"message":null,"times":null}`,
}

// differential binds data from its bytes (DecodeInput) and from the map
// they decode to (NewInput, which the binder encodes again), and fails
// unless both give the same value or the same violations. Bytes
// DecodeInput refuses are not bound.
func differential[T any](t *testing.T, data []byte, bind func(tool.Input) (T, error)) {
	t.Helper()
	in, derr := tool.DecodeInput(data)
	if derr != nil {
		return
	}
	got, rerr := bind(in)
	if inexact(data) {
		return // the map holds these integers as float64, the bytes exactly
	}
	want, merr := bind(tool.NewInput(in.Map()))
	if diff := cmp.Diff(messages(merr), messages(rerr)); diff != "" {
		t.Fatalf("%q: violations (-map +bytes):\n%s", data, diff)
	}
	// Not cmp.Diff: its search over nested any values is exponential in
	// their depth (50 nested arrays never finished). reflect.DeepEqual is
	// linear, and a difference is shown as the two values written out.
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%q: values differ\nmap: %s\nbytes: %s", data, dump(want), dump(got))
	}
}

// dump writes a bound value for a failure message: as JSON, or in Go
// syntax when it has no JSON form.
func dump(v any) string {
	if b, err := json.Marshal(v); err == nil {
		return string(b)
	}
	return fmt.Sprintf("%#v", v)
}

func TestRawDeepValues(t *testing.T) {
	// Deeply nested values in the any and raw fields: the comparison must
	// cost as much as the values, not exponentially more.
	for _, depth := range []int{1, 50, 500} {
		nest := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		data := []byte(`{"file_path":"/a","any":` + nest + `,"raw":` + nest + `}`)
		differential(t, data, kitchen.BindKitchenInput)
	}
}

// inexact reports whether data holds an integer of more than 15 digits,
// which a float64 may not hold exactly.
func inexact(data []byte) bool {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		if n, ok := tok.(json.Number); ok && !strings.ContainsAny(string(n), ".eE") && len(strings.TrimLeft(string(n), "-0")) > 15 {
			return true
		}
	}
}

func TestRawBindersAgree(t *testing.T) {
	for _, s := range kitchenSeeds {
		differential(t, []byte(s), kitchen.BindKitchenInput)
		differential(t, []byte(s), kitchen.BindEmpty)
	}
	for _, s := range grepSeeds {
		differential(t, []byte(s), grep.BindGrepInput)
	}
	for _, s := range echoSeeds {
		differential(t, []byte(s), echo.BindEchoInput)
	}
}

// FuzzRawKitchen is the differential test of the kitchen binders.
func FuzzRawKitchen(f *testing.F) {
	for _, s := range kitchenSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		differential(t, data, kitchen.BindKitchenInput)
		differential(t, data, kitchen.BindEmpty)
	})
}

// FuzzRawGrep is the differential test of the Grep binders.
func FuzzRawGrep(f *testing.F) {
	for _, s := range grepSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		differential(t, data, grep.BindGrepInput)
	})
}

// FuzzRawEcho is the differential test of the Echo binders.
func FuzzRawEcho(f *testing.F) {
	for _, s := range echoSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		differential(t, data, echo.BindEchoInput)
	})
}

func TestRawStrictAndExact(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"exact integers", `{"file_path":"/a","u64":18446744073709551615,"i64":9223372036854775807}`, nil},
		{"overflow by one", `{"file_path":"/a","u64":18446744073709551616,"i64":-9223372036854775809,"i8":-129}`, []string{
			"Parameter 'i8' must be at least -128. The tool was not executed.",
			"Parameter 'i64' must be at least -9223372036854775808. The tool was not executed.",
			"Parameter 'u64' must be at most 18446744073709551615. The tool was not executed.",
		}},
		{"integral float", `{"file_path":"/a","i8":3.0,"u8":2e2}`, nil},
		{"fraction", `{"file_path":"/a","i8":3.5}`, []string{"Parameter 'i8' must be an integer. The tool was not executed."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := kitchen.BindKitchenInput(decode(t, tt.in))
			if diff := cmp.Diff(tt.want, messages(err)); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
	got, err := kitchen.BindKitchenInput(decode(t, `{"file_path":"/a","u64":18446744073709551615}`))
	if err != nil || got.U64 != 1<<64-1 {
		t.Errorf("u64 = %d, %v; want every digit", got.U64, err)
	}
}

// TestDuplicateKeys shows that every layer that reads bytes refuses a
// duplicated key with the same sentence: DecodeInput (so that no binder,
// and no executor, ever sees one) and jsonscan.Parse.
func TestDuplicateKeys(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{`{"pattern":"a","pattern":"b"}`, []string{"Parameter 'pattern' is given more than once. The tool was not executed."}},
		{`{"pattern":"a","p\u0061ttern":"b","x":1,"x":2,"x":3}`, []string{
			"Parameter 'pattern' is given more than once. The tool was not executed.",
			"Parameter 'x' is given more than once. The tool was not executed.",
		}},
		{`{"pattern":"a","e":[{"k":1},{"k":1,"k":2}],"o":{"a":{"b":0,"b":0}}}`, []string{
			"Parameter 'e[1].k' is given more than once. The tool was not executed.",
			"Parameter 'o.a.b' is given more than once. The tool was not executed.",
		}},
	}
	for _, tt := range tests {
		_, derr := tool.DecodeInput([]byte(tt.in))
		_, perr := jsonscan.Parse([]byte(tt.in))
		for name, err := range map[string]error{"DecodeInput": derr, "jsonscan.Parse": perr} {
			var vs schema.Violations
			if !errors.As(err, &vs) {
				t.Errorf("%s(%s) = %v, want violations", name, tt.in, err)
				continue
			}
			if diff := cmp.Diff(tt.want, messages(vs)); diff != "" {
				t.Errorf("%s(%s) (-want +got):\n%s", name, tt.in, diff)
			}
		}
	}
}

// TestExecutorRawPath runs generated tools through the executor from bytes:
// permission first (the subject scanned from the bytes), then the binder's
// violations in place of the gate's, strict under Enforce.
func TestExecutorRawPath(t *testing.T) {
	reg := tool.NewRegistry()
	g := grep.NewGrepTool(func(_ context.Context, in grep.GrepInput, _ tool.Context) (string, error) {
		return in.Pattern + "|" + in.Path + "|" + strings.Repeat("+", in.HeadLimit), nil
	})
	if err := reg.Register(g); err != nil {
		t.Fatal(err)
	}
	allow := mustAllow(t, "Grep(/src/**)")
	tests := []struct {
		name  string
		mode  schema.Mode
		args  string
		want  string
		isErr bool
	}{
		{"warn valid", schema.Warn, `{"pattern":"p","path":"/src/a","head_limit":2}`, "p|/src/a|++", false},
		{"warn coerces", schema.Warn, `{"pattern":"p","path":"/src/a","head_limit":"2"}`, "p|/src/a|++", false},
		{"enforce refuses numeric strings", schema.Enforce, `{"pattern":"p","path":"/src/a","head_limit":"2"}`,
			"Parameter 'head_limit' must be an integer. The tool was not executed.", true},
		{"enforce binder sentences", schema.Enforce, `{"path":"/src/a","-A":-1,"pathh":1}`, strings.Join([]string{
			"Parameter 'pattern' is required (string).",
			"Parameter '-A' must be at least 0.",
			"Unknown parameter 'pathh'. Did you mean 'path'? The tool was not executed.",
		}, "\n"), true},
		{"denied before any violation", schema.Enforce, `{"path":"/etc","-A":"x"}`, "", true},
		{"escaped subject", schema.Warn, `{"pattern":"p","p\u0061th":"/src/\u0062"}`, "p|/src/b|", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := tool.NewExecutor(reg, tool.WithSchemaMode(tt.mode), tool.WithAllowList(allow), tool.WithLogger(discardLogger))
			in, err := tool.DecodeInput([]byte(tt.args))
			if err != nil {
				t.Fatal(err)
			}
			res := e.Execute(context.Background(), tool.Call{Name: "Grep", Input: in}, tool.Context{})
			if tt.want == "" {
				if !errors.Is(res.Err, tool.ErrNotAllowed) || strings.Contains(res.Content, "Parameter") {
					t.Fatalf("got %+v, want a denial that names no parameter", res)
				}
				return
			}
			if res.Content != tt.want || res.IsError != tt.isErr {
				t.Errorf("got %q (error %v), want %q (error %v)", res.Content, res.IsError, tt.want, tt.isErr)
			}
		})
	}
}

var discardLogger = slog.New(slog.DiscardHandler)

func mustAllow(t *testing.T, entries ...string) permission.List {
	t.Helper()
	l, err := permission.Parse(entries...)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
