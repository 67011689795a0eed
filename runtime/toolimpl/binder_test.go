package toolimpl

import (
	"context"
	"errors"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// sample is a struct such as toolgen generates a binder for.
type sample struct {
	Name  string
	Mode  mode
	Count int8
	Size  uint16
	Ratio float32
	Clamp int
	Flag  bool
	Tags  []string
	Env   map[string]int
	Pos   [2]float64
	When  time.Time
	Wait  time.Duration
	Inner *inner
	Raw   []byte
	Any   any
}

type mode string

type inner struct {
	ID    string
	Items []inner2
}

type inner2 struct {
	N uint
}

var (
	sampleKeys = []string{"name", "mode", "count", "size", "ratio", "clamp", "flag", "tags", "env", "pos", "when", "wait", "inner", "raw", "any"}
	innerKeys  = []string{"id", "items"}
	inner2Keys = []string{"n"}
	nameRule   = &StringRule{MinLen: new(2), MaxLen: new(5), Pattern: regexp.MustCompile(`^[a-z]+$`)}
	modeRule   = &StringRule{Enum: []string{"fast", "slow"}}
	idRule     = &StringRule{Format: "uuid"}
)

// bindSample is written as toolgen writes a binder.
func bindSample(in tool.Input) (sample, error) {
	var out sample
	b := NewBinder(in)
	b.Locate(sampleKeys)
	out.Name = String[string](&b, b.RequiredField(0, "name", "string"), "name", nameRule)
	out.Mode = Default(&b, b.Field(1), "mode", "fast", ElemWith(String[mode], modeRule))
	out.Count = IntIn[int8](&b, b.Field(2), "count", 1, math.MaxInt8)
	out.Size = Int[uint16](&b, b.Field(3), "size")
	out.Ratio = FloatIn[float32](&b, b.Field(4), "ratio", 0, 1)
	out.Clamp = IntClamp[int](&b, b.Field(5), "clamp", 1, 10)
	out.Flag = Bool[bool](&b, b.Field(6), "flag")
	out.Tags = SliceLen(&b, b.Field(7), "tags", 0, 3, ElemWith(String[string], nil))
	out.Env = Map[string](&b, b.Field(8), "env", Int[int])
	if v := b.Field(9); v.Present() {
		out.Pos = [2]float64(Array(&b, v, "pos", 2, Float[float64]))
	}
	out.When = Time(&b, b.Field(10), "when", nil)
	out.Wait = Duration(&b, b.Field(11), "wait", nil)
	out.Inner = Optional(&b, b.Field(12), "inner", bindInner)
	out.Raw = Raw[[]byte](&b, b.Field(13), "raw")
	out.Any = Any(b.Field(14))
	return Done(&b, out)
}

func bindInner(b *Binder, v Value, key string) (out inner) {
	if b.Enter(v, key, innerKeys) {
		out.ID = String[string](b, b.Field(0), "id", idRule)
		out.Items = Slice(b, b.Field(1), "items", bindInner2)
		b.Leave()
	}
	return out
}

func bindInner2(b *Binder, v Value, key string) (out inner2) {
	if b.Enter(v, key, inner2Keys) {
		out.N = Int[uint](b, b.RequiredField(0, "n", "integer"), "n")
		b.Leave()
	}
	return out
}

func messages(err error) []string {
	var vs schema.Violations
	if !errors.As(err, &vs) {
		if err == nil {
			return nil
		}
		return []string{"error: " + err.Error()}
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strings.TrimSuffix(v.Message, " The tool was not executed.")
	}
	return out
}

func TestBind(t *testing.T) {
	when := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		in   string
		want sample
		msgs []string
	}{
		{"minimal", `{"name":"ab"}`, sample{Name: "ab", Mode: "fast"}, nil},
		{"null is absent", `{"name":"ab","mode":null,"count":null}`, sample{Name: "ab", Mode: "fast"}, nil},
		{"all", `{"name":"abc","mode":"slow","count":3,"size":65535,"ratio":0.5,"clamp":99,"flag":true,"tags":["x","y"],
			"env":{"b":2,"a":1},"pos":[1.5,2],"when":"2026-12-01T10:00:00Z","wait":"1m30s",
			"inner":{"id":"123e4567-e89b-12d3-a456-426614174000","items":[{"n":1},{"n":2}]},"raw":{"b":1, "a":[true]},"any":[1,"x"]}`,
			sample{Name: "abc", Mode: "slow", Count: 3, Size: 65535, Ratio: 0.5, Clamp: 10, Flag: true, Tags: []string{"x", "y"},
				Env: map[string]int{"a": 1, "b": 2}, Pos: [2]float64{1.5, 2}, When: when, Wait: 90 * time.Second,
				Inner: &inner{ID: "123e4567-e89b-12d3-a456-426614174000", Items: []inner2{{1}, {2}}},
				Raw:   []byte(`{"a":[true],"b":1}`), Any: []any{1.0, "x"}}, nil},
		{"required", `{}`, sample{}, []string{"Parameter 'name' is required (string)."}},
		{"clamp low, beyond int", `{"name":"ab","clamp":-1e30}`, sample{Name: "ab", Mode: "fast", Clamp: 1}, nil},
		{"every violation in field order, unknown keys last", `{"zz":1,"name":"A","mode":"medium","count":0,"size":-1,"ratio":2,"flag":"yes",
			"tags":[1,"a",2],"env":{"b":"x","a":true},"pos":[1],"when":"today","wait":"soon","inner":{"id":"x","q":1,"items":[{},{"n":-1}]},"aa":2}`,
			sample{}, []string{
				"Parameter 'name' must be at least 2 characters long.",
				"Parameter 'mode' must be one of [fast, slow], but was 'medium'.",
				"Parameter 'count' must be at least 1.",
				"Parameter 'size' must be at least 0.",
				"Parameter 'ratio' must be at most 1.",
				"Parameter 'flag' must be a boolean.",
				"Parameter 'tags[0]' must be a string.",
				"Parameter 'tags[2]' must be a string.",
				"Parameter 'env.a' must be an integer.",
				"Parameter 'env.b' must be an integer.",
				"Parameter 'pos' must have at least 2 items.",
				"Parameter 'when' must be a valid date-time, such as 2024-05-01T14:30:00Z.",
				"Parameter 'wait' must be a valid Go duration such as 1m30s or 250ms.",
				"Unknown parameter 'inner.q'. Did you mean 'inner.id'?",
				"Parameter 'inner.id' must be a valid uuid, such as 123e4567-e89b-12d3-a456-426614174000.",
				"Parameter 'inner.items[0].n' is required (integer).",
				"Parameter 'inner.items[1].n' must be at least 0.",
				"Unknown parameter 'aa'.",
				"Unknown parameter 'zz'.",
			}},
		{"type bounds", `{"name":"ab","count":300,"size":70000,"ratio":1e39}`, sample{}, []string{
			"Parameter 'count' must be at most 127.",
			"Parameter 'size' must be at most 65535.",
			"Parameter 'ratio' must be at most 3.4028234663852886e+38.",
		}},
		{"string rules", `{"name":"abcdef"}`, sample{}, []string{"Parameter 'name' must be at most 5 characters long."}},
		{"pattern", `{"name":"AB"}`, sample{}, []string{"Parameter 'name' must match the pattern '^[a-z]+$'."}},
		{"too many items", `{"name":"ab","tags":["a","b","c","d"]}`, sample{}, []string{"Parameter 'tags' must have at most 3 items."}},
		{"nested wrong type", `{"name":"ab","inner":[],"env":1,"tags":{}}`, sample{}, []string{
			"Parameter 'tags' must be an array.",
			"Parameter 'env' must be an object.",
			"Parameter 'inner' must be an object.",
		}},
		{"float where integer", `{"name":"ab","count":2.5}`, sample{}, []string{"Parameter 'count' must be an integer."}},
		{"integral float", `{"name":"ab","count":2.0}`, sample{Name: "ab", Mode: "fast", Count: 2}, nil},
		{"null items are of the wrong type", `{"name":"ab","tags":[null],"env":{"a":null},"inner":{"items":[null]}}`, sample{}, []string{
			"Parameter 'tags[0]' must be a string.",
			"Parameter 'env.a' must be an integer.",
			"Parameter 'inner.items[0]' must be an object.",
		}},
		{"empty map key", `{"name":"ab","env":{"":"x"}}`, sample{}, []string{"Parameter 'env.' must be an integer."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in, err := tool.DecodeInput([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			got, err := bindSample(in)
			if diff := cmp.Diff(tt.msgs, messages(err)); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(sample{})); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
			// An Input made from the decoded map binds the same.
			got2, err2 := bindSample(tool.NewInput(in.Map()))
			if diff := cmp.Diff(messages(err), messages(err2)); diff != "" {
				t.Errorf("map input: violations (-bytes +map):\n%s", diff)
			}
			if diff := cmp.Diff(got, got2); diff != "" {
				t.Errorf("map input: value (-bytes +map):\n%s", diff)
			}
		})
	}
}

// TestUnencodableMap: a Go value JSON cannot encode, in an Input made from
// a map, is a value of the wrong type; the other fields bind.
func TestUnencodableMap(t *testing.T) {
	_, err := bindSample(tool.NewInput(map[string]any{"name": make(chan int), "count": math.NaN(), "size": 3}))
	want := []string{"Parameter 'name' must be a string.", "Parameter 'count' must be an integer."}
	if diff := cmp.Diff(want, messages(err)); diff != "" {
		t.Errorf("violations (-want +got):\n%s", diff)
	}
}

func TestTool(t *testing.T) {
	def := &tool.Definition{Name: "Sample", ChecksInput: true}
	run := func(_ context.Context, in sample, _ tool.Context) (string, error) {
		switch in.Name {
		case "boom":
			panic("boom")
		case "fail":
			return "", errors.New("it failed")
		}
		return "hello " + in.Name, nil
	}
	tl := NewTool(def, bindSample, run)
	tests := []struct {
		in      string
		want    string
		isError bool
	}{
		{`{"name":"ab"}`, "hello ab", false},
		{`{}`, "Parameter 'name' is required (string). The tool was not executed.", true},
		{`{"name":"fail"}`, "it failed", true},
	}
	for _, tt := range tests {
		in, _ := tool.DecodeInput([]byte(tt.in))
		res := tl.Execute(context.Background(), in, tool.Context{})
		if res.Content != tt.want || res.IsError != tt.isError {
			t.Errorf("%s: got %q (error %v), want %q (error %v)", tt.in, res.Content, res.IsError, tt.want, tt.isError)
		}
	}
	in, _ := tool.DecodeInput([]byte(`{"name":"boom"}`))
	if res := tl.Execute(context.Background(), in, tool.Context{}); !res.IsError {
		t.Errorf("a panic gave %+v, want an error result", res)
	}
	if d := tl.Definition(); d.Name != "Sample" || !d.ChecksInput {
		t.Errorf("Definition() = %+v", d)
	}
}

type report struct{ N int }

func TestStructuredTool(t *testing.T) {
	def := &tool.Definition{Name: "Report"}
	bind := func(tool.Input) (struct{}, error) { return struct{}{}, nil }
	for _, tt := range []struct {
		name string
		run  func(context.Context, struct{}, tool.Context) (any, error)
		want any
	}{
		{"value", func(context.Context, struct{}, tool.Context) (any, error) { return report{N: 1}, nil }, report{N: 1}},
		{"pointer", func(context.Context, struct{}, tool.Context) (any, error) { return &report{N: 2}, nil }, &report{N: 2}},
		{"nil pointer", func(context.Context, struct{}, tool.Context) (any, error) { return (*report)(nil), nil }, nil},
		{"other", func(context.Context, struct{}, tool.Context) (any, error) { return "text", nil }, nil},
	} {
		res := NewStructuredTool[report](def, bind, tt.run, nil).Execute(context.Background(), tool.Input{}, tool.Context{})
		if diff := cmp.Diff(tt.want, res.Structured); diff != "" {
			t.Errorf("%s: structured (-want +got):\n%s", tt.name, diff)
		}
	}
}

type listing struct {
	Items []string `json:"items"`
}

// TestStructuredToolFills: the fill function makes the output's nil
// slices empty in what is sent (structured content and text alike),
// without writing into the value run returned.
func TestStructuredToolFills(t *testing.T) {
	def := &tool.Definition{Name: "List"}
	bind := func(tool.Input) (struct{}, error) { return struct{}{}, nil }
	fill := func(v listing) listing {
		if v.Items == nil {
			v.Items = []string{}
		}
		return v
	}
	returned := &listing{}
	for _, tt := range []struct {
		name string
		run  func(context.Context, struct{}, tool.Context) (any, error)
		want any
	}{
		{"value", func(context.Context, struct{}, tool.Context) (any, error) { return listing{}, nil }, listing{Items: []string{}}},
		{"pointer", func(context.Context, struct{}, tool.Context) (any, error) { return returned, nil }, &listing{Items: []string{}}},
	} {
		res := NewStructuredTool[listing](def, bind, tt.run, fill).Execute(context.Background(), tool.Input{}, tool.Context{})
		if diff := cmp.Diff(tt.want, res.Structured); diff != "" || res.Content != `{"items":[]}` {
			t.Errorf("%s: content %s; structured (-want +got):\n%s", tt.name, res.Content, diff)
		}
	}
	if returned.Items != nil {
		t.Errorf("the value run returned was written: %+v", returned)
	}
}

// TestFormats: each format a tag can name, on values it takes and values
// it refuses.
func TestFormats(t *testing.T) {
	tests := []struct {
		format string
		ok     []string
		bad    []string
	}{
		{"time", []string{"10:11:12", "10:11:12Z", "10:11:12z", "10:11:12.5", "10:11:12.125+02:00", "23:59:59-07:30"},
			[]string{"25:00:00", "10:11", "10:11:12.", "10:11:12.5x", "10:11:12+2:00", "10:11:12+02:00:00", "10:11:12+25:00", "T10:11:12", "10:11:12 Z", ""}},
		{"date", []string{"2024-05-06", "2024-02-29"}, []string{"2024-13-01", "2023-02-29", "2024-5-6", "2024-05-06T00:00:00Z"}},
		{"date-time", []string{"2024-05-06T07:08:09Z", "2024-05-06T07:08:09.5+02:00"}, []string{"2024-05-06", "now", "2024-05-06 07:08:09Z"}},
		{"duration", []string{"1m30s", "250ms", "-2h"}, []string{"1 hour", "P1D", ""}},
		{"email", []string{"a@example.com"}, []string{"nobody", "@example.com"}},
		{"uri", []string{"https://example.com/a?b=c", "urn:isbn:0451450523"}, []string{"relative/path", "/abs/path"}},
		{"uuid", []string{"123e4567-e89b-12d3-a456-426614174000"}, []string{"123e4567e89b12d3a456426614174000", "xyz"}},
	}
	for _, tt := range tests {
		for _, s := range tt.ok {
			if !HasFormat(s, tt.format) {
				t.Errorf("%s %q refused", tt.format, s)
			}
		}
		for _, s := range tt.bad {
			if HasFormat(s, tt.format) {
				t.Errorf("%s %q accepted", tt.format, s)
			}
		}
	}
}
