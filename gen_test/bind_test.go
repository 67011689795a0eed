package gentest

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/examples/quickstart/echo"
	"github.com/toolgen/toolgen/gen_test/kitchen"
	"github.com/toolgen/toolgen/gen_test/kitchen/units"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func decode(t *testing.T, s string) tool.Input {
	t.Helper()
	in, err := tool.DecodeInput([]byte(s))
	if err != nil {
		t.Fatalf("DecodeInput(%s): %v", s, err)
	}
	return in
}

func messages(err error) []string {
	if err == nil {
		return nil
	}
	var out []string
	for _, v := range err.(schema.Violations) {
		out = append(out, v.Message)
	}
	return out
}

func TestEcho(t *testing.T) {
	tl := echo.NewEchoTool(echo.Echo)
	tests := []struct {
		in      string
		want    string
		isError bool
	}{
		{`{"message":"hi"}`, "hi", false},
		{`{"message":"hi","times":3,"sep":"newline"}`, "hi\nhi\nhi", false},
		{`{"message":"hi","times":"2"}`, "hi hi", false},
		{`{"message":"hi","times":0}`, "Parameter 'times' must be at least 1. The tool was not executed.", true},
		{`{"times":2.5,"sep":"tab","mesage":"x"}`, strings.Join([]string{
			"Parameter 'message' is required (string).",
			"Parameter 'times' must be an integer.",
			"Parameter 'sep' must be one of [space, newline, none], but was 'tab'.",
			"Unknown parameter 'mesage'. Did you mean 'message'? The tool was not executed.",
		}, "\n"), true},
	}
	for _, tt := range tests {
		res := tl.Execute(context.Background(), decode(t, tt.in), tool.Context{})
		if res.Content != tt.want || res.IsError != tt.isError {
			t.Errorf("Execute(%s) = %q (error %v), want %q (error %v)", tt.in, res.Content, res.IsError, tt.want, tt.isError)
		}
	}
	def := tl.Definition()
	if def.Name != "Echo" || def.Description != "Repeats a message back." {
		t.Errorf("Definition() = %q, %q", def.Name, def.Description)
	}
	if got := tl.Definition().Concurrency; got != tool.Safe {
		t.Errorf("Concurrency = %v, want safe", got)
	}
}

func TestEchoPanicsAndErrors(t *testing.T) {
	panicky := echo.NewEchoTool(func(context.Context, echo.EchoInput, tool.Context) (string, error) { panic("boom") })
	res := panicky.Execute(context.Background(), decode(t, `{"message":"x"}`), tool.Context{})
	if !res.IsError || !strings.Contains(res.Content, "boom") {
		t.Errorf("panic: got %+v", res)
	}
	failing := echo.NewEchoTool(func(context.Context, echo.EchoInput, tool.Context) (int, error) { return 0, errBad })
	res = failing.Execute(context.Background(), decode(t, `{"message":"x"}`), tool.Context{})
	if !res.IsError || res.Content != errBad.Error() {
		t.Errorf("error: got %+v", res)
	}
	jsonOut := echo.NewEchoTool(func(_ context.Context, in echo.EchoInput, _ tool.Context) (map[string]int, error) {
		return map[string]int{"times": in.Times}, nil
	})
	res = jsonOut.Execute(context.Background(), decode(t, `{"message":"x"}`), tool.Context{})
	if res.IsError || res.Content != `{"times":1}` {
		t.Errorf("json: got %+v", res)
	}
}

type badError struct{}

func (badError) Error() string { return "it went wrong" }

var errBad = badError{}

func TestKitchenBind(t *testing.T) {
	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	in := decode(t, `{
		"file_path": "/tmp/x", "dir": "/w", "verbose": true, "level": "warn", "-i": true, "-A": 3,
		"limit": 99, "i8": -128, "i16": 300, "i32": 7, "i64": -5, "u": 1, "u8": 200, "u16": 2, "u32": 3,
		"u64": 9007199254740992, "f32": 1.5, "f64": 0.25, "opt": 4, "opt_s": "s",
		"edits": [{"old_string": "a", "new_string": "b", "replace_all": true}],
		"tags": ["x", "z"], "pair": [1, 2], "env": {"k": "abc"}, "counts": {"a": 1},
		"at": {"x": 1, "y": 2}, "other": {"x": 3, "y": 4, "unit": "ft"}, "units": ["in"],
		"levels": {"a": "debug"}, "options": {"depth": 7}, "raw": {"a": [1, null]}, "any": [1, "x"],
		"when": "2024-05-06T07:08:09Z", "timeout": "2s", "day": "2024-05-06", "clock": "10:11:12",
		"stamp": "2024-05-06T07:08:09+02:00", "span": "3h", "email": "a@b.example", "link": "https://x.example/y",
		"id": "123e4567-e89b-12d3-a456-426614174000"
	}`)
	got, err := kitchen.BindKitchenInput(in)
	if err != nil {
		t.Fatalf("BindKitchenInput: %v", err)
	}
	all := true
	opt, optS := 4, "s"
	want := kitchen.KitchenInput{
		Base:     kitchen.Base{Dir: "/w", Verbose: true},
		FilePath: "/tmp/x", Note: "a,b", Level: kitchen.Warn, I: true, A: 3, Limit: 20,
		I8: -128, I16: 300, I32: 7, I64: -5, U: 1, U8: 200, U16: 2, U32: 3, U64: 1 << 53,
		F32: 1.5, F64: 0.25, Opt: &opt, OptS: &optS,
		Edits: []kitchen.Edit{{Old: "a", New: "b", All: &all}},
		Tags:  kitchen.Tags{"x", "z"}, Pair: [2]int{1, 2}, Env: map[string]string{"k": "abc"},
		Counts: map[string]int{"a": 1},
		At:     units.Point{X: 1, Y: 2, Unit: units.Metre}, Other: &units.Point{X: 3, Y: 4, Unit: units.Foot},
		Units: []units.Unit{units.Inch}, Levels: map[string]kitchen.Level{"a": kitchen.Debug},
		Raw: json.RawMessage(`{"a":[1,null]}`), Any: []any{1.0, "x"}, When: when, Timeout: 2 * time.Second,
		Day: "2024-05-06", Clock: "10:11:12", Stamp: "2024-05-06T07:08:09+02:00", Span: "3h",
		Email: "a@b.example", Link: "https://x.example/y", ID: "123e4567-e89b-12d3-a456-426614174000",
	}
	want.Options.Depth = 7
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(kitchen.KitchenInput{})); diff != "" {
		t.Errorf("BindKitchenInput (-want +got):\n%s", diff)
	}
}

func TestKitchenDefaults(t *testing.T) {
	got, err := kitchen.BindKitchenInput(decode(t, `{"file_path": "/a"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := kitchen.KitchenInput{FilePath: "/a", Note: "a,b", Level: kitchen.Info, Limit: 5, F64: 0.5, Timeout: 90 * time.Second}
	want.Options.Depth = 0
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(kitchen.KitchenInput{})); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	got, err = kitchen.BindKitchenInput(decode(t, `{"file_path": "/a", "options": {}, "limit": -3}`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Options.Depth != 2 || got.Limit != 1 || got.Opt != nil || got.Other != nil {
		t.Errorf("nested default, clamp or nil pointers wrong: %+v", got)
	}
	got, err = kitchen.BindKitchenInput(decode(t, `{"file_path": "/a", "limit": 1e300}`))
	if err != nil || got.Limit != 20 {
		t.Errorf("clamp beyond int range: %v, %d", err, got.Limit)
	}
}

func TestKitchenViolations(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"required and types", `{"-i": "yes", "-A": 11, "i8": 128, "u": -1, "u8": 201, "f32": 1e39, "note": "this note is much too long"}`, []string{
			"Parameter 'file_path' is required (string). The tool was not executed.",
			"Parameter 'note' must be at most 20 characters long. The tool was not executed.",
			"Parameter '-i' must be a boolean. The tool was not executed.",
			"Parameter '-A' must be at most 10. The tool was not executed.",
			"Parameter 'i8' must be at most 127. The tool was not executed.",
			"Parameter 'u' must be at least 0. The tool was not executed.",
			"Parameter 'u8' must be at most 200. The tool was not executed.",
			"Parameter 'f32' must be at most 3.4028234663852886e+38. The tool was not executed.",
		}},
		{"nested paths", `{"file_path": "/a", "edits": [{"old_string": "", "new_string": 1, "replace_all": null}, {"old_strin": "x", "new_string": "y"}], "env": {"K": "UP"}, "at": {"x": "1"}, "tags": ["x", null, "w"]}`, []string{
			"Parameter 'edits[0].old_string' must be at least 1 character long. The tool was not executed.",
			"Parameter 'edits[0].new_string' must be a string. The tool was not executed.",
			"Unknown parameter 'edits[1].old_strin'. Did you mean 'edits[1].old_string'? The tool was not executed.",
			"Parameter 'edits[1].old_string' is required (string). The tool was not executed.",
			"Parameter 'tags[1]' must be a string. The tool was not executed.",
			"Parameter 'tags[2]' must be one of [x, y, z], but was 'w'. The tool was not executed.",
			"Parameter 'env.K' must match the pattern '^[a-z]+$'. The tool was not executed.",
			"Parameter 'at.y' is required (number). The tool was not executed.",
		}},
		{"items and formats", `{"file_path": "a,b", "edits": [], "pair": [1], "when": "yesterday", "timeout": "soon", "day": "2024-13-01", "clock": "25:00:00", "stamp": "now", "span": "1 hour", "email": "nobody", "link": "relative/path", "id": "xyz", "level": "trace", "units": ["mile"], "i64": -6, "f64": 2.5, "i16": 3.5}`, []string{
			"Parameter 'file_path' must match the pattern '^/[^,]*$'. The tool was not executed.",
			"Parameter 'level' must be one of [debug, info, warn], but was 'trace'. The tool was not executed.",
			"Parameter 'i16' must be an integer. The tool was not executed.",
			"Parameter 'i64' must be at least -5. The tool was not executed.",
			"Parameter 'f64' must be at most 1. The tool was not executed.",
			"Parameter 'edits' must have at least 1 item. The tool was not executed.",
			"Parameter 'pair' must have at least 2 items. The tool was not executed.",
			"Parameter 'units[0]' must be one of [m, in, ft], but was 'mile'. The tool was not executed.",
			"Parameter 'when' must be a valid date-time, such as 2024-05-01T14:30:00Z. The tool was not executed.",
			"Parameter 'timeout' must be a valid Go duration such as 1m30s or 250ms. The tool was not executed.",
			"Parameter 'day' must be a valid date, such as 2024-05-01. The tool was not executed.",
			"Parameter 'clock' must be a valid time, such as 14:30:00Z. The tool was not executed.",
			"Parameter 'stamp' must be a valid date-time, such as 2024-05-01T14:30:00Z. The tool was not executed.",
			"Parameter 'span' must be a valid Go duration such as 1m30s or 250ms. The tool was not executed.",
			"Parameter 'email' must be a valid email, such as ada@example.com. The tool was not executed.",
			"Parameter 'link' must be a valid uri, such as https://example.com/page. The tool was not executed.",
			"Parameter 'id' must be a valid uuid, such as 123e4567-e89b-12d3-a456-426614174000. The tool was not executed.",
		}},
		{"wrong container types", `{"file_path": "/a", "edits": {}, "env": [], "at": 1, "options": "x", "pair": "x"}`, []string{
			"Parameter 'edits' must be an array. The tool was not executed.",
			"Parameter 'pair' must be an array. The tool was not executed.",
			"Parameter 'env' must be an object. The tool was not executed.",
			"Parameter 'at' must be an object. The tool was not executed.",
			"Parameter 'options' must be an object. The tool was not executed.",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := kitchen.BindKitchenInput(decode(t, tt.in))
			if diff := cmp.Diff(tt.want, messages(err)); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
			if err != nil && !cmp.Equal(got, kitchen.KitchenInput{}, cmp.AllowUnexported(kitchen.KitchenInput{})) {
				t.Errorf("got a partial value with an error: %+v", got)
			}
		})
	}
}

func TestKitchenGoValues(t *testing.T) {
	// NewInput may carry Go numbers; NaN and out-of-range values are violations.
	_, err := kitchen.BindKitchenInput(tool.NewInput(map[string]any{"file_path": "/a", "f64": math.NaN(), "i32": int64(1) << 40, "u16": uint8(3)}))
	want := []string{
		"Parameter 'i32' must be at most 2147483647. The tool was not executed.",
		"Parameter 'f64' must be a number. The tool was not executed.",
	}
	if diff := cmp.Diff(want, messages(err)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

// TestKitchenGoComposites: NewInput holds Go slices, maps and structs as
// decoded JSON, so the map binder binds them as it binds a model's
// arguments.
func TestKitchenGoComposites(t *testing.T) {
	type edit struct {
		Old string `json:"old_string"`
		New string `json:"new_string"`
	}
	got, err := kitchen.BindKitchenInput(tool.NewInput(map[string]any{
		"file_path": "/a",
		"tags":      []string{"x", "z"},
		"env":       map[string]string{"k": "abc"},
		"edits":     []edit{{Old: "a", New: "b"}},
		"pair":      [2]int{1, 2},
	}))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(kitchen.Tags{"x", "z"}, got.Tags); diff != "" {
		t.Errorf("tags (-want +got):\n%s", diff)
	}
	if got.Env["k"] != "abc" || len(got.Edits) != 1 || got.Edits[0].Old != "a" || got.Pair != [2]int{1, 2} {
		t.Errorf("bound %+v", got)
	}
}

func TestKitchenBehaviours(t *testing.T) {
	tl := kitchen.NewKitchenTool(func(context.Context, kitchen.KitchenInput, tool.Context) (tool.Result, error) {
		return tool.Success("ok"), nil
	})
	if tl.Definition().Concurrency != tool.Sequential || tl.Definition().Interrupt != tool.NonInterruptible ||
		tl.Definition().SideEffect != tool.Destructive || tl.Definition().Loading != tool.Deferred {
		t.Errorf("behaviours: %v %v %v %v", tl.Definition().Concurrency, tl.Definition().Interrupt, tl.Definition().SideEffect, tl.Definition().Loading)
	}
	sd := tl.Definition().Subject
	if s, ok := sd.Read(decode(t, `{"file_path": "/etc/x"}`)); !ok || s.Value != "/etc/x" || s.Kind != tool.PathSubject {
		t.Errorf("Subject.Read = %v, %v", s, ok)
	}
	for _, bad := range []string{`{}`, `{"file_path": 3}`, `{"file_path": " "}`} {
		if _, ok := sd.Read(decode(t, bad)); ok {
			t.Errorf("Subject.Read(%s) judged", bad)
		}
	}
	if echo.NewEchoTool(echo.Echo).Definition().Subject.Declared() {
		t.Error("Echo declares a subject it does not have")
	}
	if d := tl.Definition(); d.SideEffect != tool.Destructive || !d.ChecksInput {
		t.Errorf("Kitchen's definition declares side effect %v, checks input %v", d.SideEffect, d.ChecksInput)
	}
	empty := kitchen.NewEmptyTool(func(context.Context, kitchen.Empty, tool.Context) (string, error) { return "done", nil })
	if res := empty.Execute(context.Background(), decode(t, `{"x": 1}`), tool.Context{}); !res.IsError {
		t.Errorf("Empty accepted an unknown key: %+v", res)
	}
}

func bindKitchen(in tool.Input) { _, _ = kitchen.BindKitchenInput(in) }
