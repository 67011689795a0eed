// Package bench compares toolgen's binders with the Go peers that turn a
// tool call's JSON arguments into a typed struct. It is a module of its own
// so that the peers (santhosh-tekuri/jsonschema, google/jsonschema-go,
// segmentio/encoding, mapstructure) stay out of toolgen's requirements;
// `make bench` runs it and prints one table (see benchtable).
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/go-viper/mapstructure/v2"
	gschema "github.com/google/jsonschema-go/jsonschema"
	sjsonschema "github.com/santhosh-tekuri/jsonschema/v6"
	segjson "github.com/segmentio/encoding/json"

	"github.com/toolgen/toolgen/gen_test/grep"
	"github.com/toolgen/toolgen/gen_test/read"
	"github.com/toolgen/toolgen/gen_test/write"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// A pipeline turns one call's arguments into the typed struct, or fails.
// data is the call's JSON; m is the same arguments already decoded, for the
// pipelines that start from a map, and in that map as a tool.Input.
type pipeline[T any] struct {
	name string
	run  func(data []byte, m map[string]any, in tool.Input) (T, error)
}

// fixture is one input type with its arguments and its pipelines.
type fixture[T any] struct {
	name      string
	valid     []byte
	invalid   []byte // one missing required, one wrong type, one unknown key
	pipelines []pipeline[T]
}

func pipelines[T any](schemaMap map[string]any, bind func(tool.Input) (T, error), hand func([]byte) (T, error)) []pipeline[T] {
	santhosh := compileSanthosh(schemaMap)
	gosdk := resolveGoogle(schemaMap)
	var hw []pipeline[T]
	if hand != nil {
		hw = append(hw, pipeline[T]{"handwritten", func(data []byte, _ map[string]any, _ tool.Input) (T, error) { return hand(data) }})
	}
	return append(hw, []pipeline[T]{
		// The public path: the bytes checked and kept by DecodeInput, then
		// the generated binder over them.
		{"toolgen", func(data []byte, _ map[string]any, _ tool.Input) (T, error) {
			in, err := tool.DecodeInput(data)
			if err != nil {
				var zero T
				return zero, err
			}
			return bind(in)
		}},
		// The binder over an Input made from a map (NewInput), which it
		// encodes once.
		{"toolgen-map", func(_ []byte, _ map[string]any, in tool.Input) (T, error) { return bind(in) }},
		{"encoding-json", func(data []byte, _ map[string]any, _ tool.Input) (T, error) {
			var out T
			err := json.Unmarshal(data, &out)
			return out, err
		}},
		{"roundtrip", func(_ []byte, m map[string]any, _ tool.Input) (T, error) {
			var out T
			data, err := json.Marshal(m)
			if err != nil {
				return out, err
			}
			err = json.Unmarshal(data, &out)
			return out, err
		}},
		{"mapstructure", func(_ []byte, m map[string]any, _ tool.Input) (T, error) {
			var out T
			err := mapstructure.Decode(m, &out)
			return out, err
		}},
		{"santhosh", func(data []byte, _ map[string]any, _ tool.Input) (T, error) {
			var out T
			inst, err := sjsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				return out, err
			}
			if err := santhosh.Validate(inst); err != nil {
				return out, err
			}
			err = json.Unmarshal(data, &out)
			return out, err
		}},
		{"gosdk", func(data []byte, _ map[string]any, _ tool.Input) (T, error) { return gosdkCall[T](gosdk, data) }},
	}...)
}

func compileSanthosh(s map[string]any) *sjsonschema.Schema {
	doc, err := sjsonschema.UnmarshalJSON(bytes.NewReader(mustJSON(s)))
	if err != nil {
		panic(err)
	}
	c := sjsonschema.NewCompiler()
	if err := c.AddResource("mem:///tool.json", doc); err != nil {
		panic(err)
	}
	sch, err := c.Compile("mem:///tool.json")
	if err != nil {
		panic(err)
	}
	return sch
}

// resolveGoogle does what go-sdk's mcp.AddTool does once for a tool whose
// input schema is given as a map: remarshal it to a *jsonschema.Schema and
// resolve it with ValidateDefaults.
func resolveGoogle(s map[string]any) *gschema.Resolved {
	var sch *gschema.Schema
	if err := json.Unmarshal(mustJSON(s), &sch); err != nil {
		panic(err)
	}
	r, err := sch.Resolve(&gschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(err)
	}
	return r
}

// gosdkCall reproduces the per-call work of go-sdk v1.8.0's typed tool
// handler (mcp/server.go toolForErr and mcp/tool.go applySchema): unmarshal
// the arguments into a map with its internal JSON package (a depth check,
// then segmentio/encoding's decoder with case-sensitive field matching),
// apply the schema's defaults, validate with google/jsonschema-go, marshal
// the map again because defaults were applied, and unmarshal that into the
// typed input.
func gosdkCall[T any](resolved *gschema.Resolved, data json.RawMessage) (T, error) {
	var in T
	v := make(map[string]any)
	if len(data) > 0 {
		if err := sdkUnmarshal(data, &v); err != nil {
			return in, fmt.Errorf("unmarshaling arguments: %w", err)
		}
	}
	var unmarshaled any = v
	if err := resolved.ApplyDefaults(&unmarshaled); err != nil {
		return in, fmt.Errorf("applying schema defaults:\n%w", err)
	}
	if err := resolved.Validate(&unmarshaled); err != nil {
		return in, fmt.Errorf("validating \"arguments\": %v", err)
	}
	input, err := json.Marshal(unmarshaled)
	if err != nil {
		return in, fmt.Errorf("marshalling with defaults: %v", err)
	}
	err = sdkUnmarshal(input, &in)
	return in, err
}

// sdkUnmarshal is go-sdk's internal/json.Unmarshal: a nesting check over
// the bytes, then a segmentio decoder that matches field names exactly.
func sdkUnmarshal(data []byte, v any) error {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > 1000 {
				return errors.New("json: exceeded maximum nesting depth of 1000")
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	dec := segjson.NewDecoder(bytes.NewReader(data))
	dec.DontMatchCaseInsensitiveStructFields()
	return dec.Decode(v)
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

var grepFixture = fixture[grep.GrepInput]{
	name: "Grep",
	valid: []byte(`{"pattern":"func \\w+","path":"/src","glob":"*.go","type":"go","output_mode":"content",
	"-i":true,"-n":true,"multiline":false,"-A":2,"-B":1,"-C":0,"head_limit":50,"offset":10}`),
	invalid: []byte(`{"path":3,"glob":"*.go","type":"go","output_mode":"content",
	"-i":true,"-n":true,"multiline":false,"-A":2,"-B":1,"-C":0,"head_limit":50,"offset":10,"context":2}`),
	pipelines: pipelines(grep.NewGrepTool(nopGrep).Definition().InputSchema, grep.BindGrepInput, handGrep),
}

var readFixture = fixture[read.ReadInput]{
	name:      "Read",
	valid:     []byte(`{"file_path":"/src/main.go","offset":10,"limit":200}`),
	invalid:   []byte(`{"offset":true,"limit":200,"lines":5}`),
	pipelines: pipelines(read.NewReadTool(nopRead).Definition().InputSchema, read.BindReadInput, nil),
}

// writeFixture is a Write call carrying a 64 KiB Go file: a long string
// with an escape on every line, as a model writes or edits code.
var writeFixture = fixture[write.WriteInput]{
	name: "Write",
	valid: mustJSON(map[string]any{"file_path": "/src/main.go",
		"content": strings.Repeat("func main() {\n\tfmt.Println(\"hello, \\\"world\\\"\")\n}\n", 64<<10/52)}),
	invalid:   []byte(`{"content":5,"mode":"0644"}`),
	pipelines: pipelines(write.NewWriteTool(nopWrite).Definition().InputSchema, write.BindWriteInput, nil),
}

func nopWrite(context.Context, write.WriteInput, tool.Context) (string, error) { return "ok", nil }

func nopGrep(context.Context, grep.GrepInput, tool.Context) (string, error) { return "ok", nil }
func nopRead(context.Context, read.ReadInput, tool.Context) (string, error) { return "ok", nil }

func decodeMap(data []byte) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		panic(err)
	}
	return m
}

func benchFixture[T any](b *testing.B, f fixture[T]) {
	for _, c := range []struct {
		name string
		data []byte
	}{{"valid", f.valid}, {"invalid", f.invalid}} {
		m := decodeMap(c.data)
		in := tool.NewInput(m)
		if c.name == "valid" {
			// The public path's first half alone: the check of the bytes,
			// their copy and the spans of the top-level members.
			b.Run(f.name+"/valid/decodeinput", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := tool.DecodeInput(c.data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		for _, p := range f.pipelines {
			wantErr := c.name == "invalid"
			b.Run(f.name+"/"+c.name+"/"+p.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := p.run(c.data, m, in); err != nil && !wantErr {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkBind is BenchmarkBind/<input>/<case>/<pipeline>.
func BenchmarkBind(b *testing.B) {
	benchFixture(b, grepFixture)
	benchFixture(b, readFixture)
	benchFixture(b, writeFixture)
}

// violationCount says how many problems a pipeline's error reports.
func violationCount(err error) int {
	var vs schema.Violations
	if errors.As(err, &vs) {
		return len(vs)
	}
	var se *sjsonschema.ValidationError
	if errors.As(err, &se) {
		return leaves(se)
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok { // errors.Join (mapstructure)
		return len(j.Unwrap())
	}
	// Other errors are one sentence.
	return 1
}

func leaves(e *sjsonschema.ValidationError) int {
	if len(e.Causes) == 0 {
		return 1
	}
	n := 0
	for _, c := range e.Causes {
		n += leaves(c)
	}
	return n
}

func checkFixture[T any](t *testing.T, f fixture[T], want map[string]int) {
	for _, p := range f.pipelines {
		if _, err := p.run(f.valid, decodeMap(f.valid), tool.NewInput(decodeMap(f.valid))); err != nil {
			t.Errorf("%s/%s refused the valid input: %v", f.name, p.name, err)
		}
		_, err := p.run(f.invalid, decodeMap(f.invalid), tool.NewInput(decodeMap(f.invalid)))
		if err == nil {
			t.Errorf("%s/%s accepted the invalid input", f.name, p.name)
			continue
		}
		n := violationCount(err)
		t.Logf("%s/%s reports %d of 3: %s", f.name, p.name, n, strings.ReplaceAll(err.Error(), "\n", " | "))
		if w, ok := want[p.name]; ok && n != w {
			t.Errorf("%s/%s reports %d problems, want %d", f.name, p.name, n, w)
		}
	}
}

// TestPipelinesReject checks that every pipeline accepts the valid inputs
// and rejects the invalid ones, and records (go test -v) what each reports:
// the toolgen binder reports all three problems, the pipelines without a
// schema (and the hand-written binder) only the first.
func TestPipelinesReject(t *testing.T) {
	full := map[string]int{"toolgen": 3, "toolgen-map": 3, "santhosh": 3, "handwritten": 1}
	checkFixture(t, grepFixture, full)
	checkFixture(t, readFixture, full)
	checkFixture(t, writeFixture, full)
}

// BenchmarkExecute takes one Grep call from raw bytes to its Result
// through the executor (a 20-entry allow-list, schema.Warn), beside the same
// work without the executor: DecodeInput, the generated binder, the tool function
// and rendering. Their difference is the executor's own cost. In
// "executor" the list names Grep without a pattern (19 other entries have
// one); in "executor-path" Grep's entry is Grep(/src/**), so the decision
// also resolves the path's symbolic links on the file system.
func BenchmarkExecute(b *testing.B) {
	g := grep.NewGrepTool(nopGrep)
	reg := tool.NewRegistry()
	if err := reg.Register(g); err != nil {
		b.Fatal(err)
	}
	executor := func(grepEntry string) *tool.Executor {
		entries := []string{grepEntry}
		for i := len(entries); i < 20; i++ {
			entries = append(entries, fmt.Sprintf("Tool%02d(/data/%02d/**)", i, i))
		}
		allow, err := permission.Parse(entries...)
		if err != nil {
			b.Fatal(err)
		}
		return tool.NewExecutor(reg, tool.WithSchemaMode(schema.Warn), tool.WithAllowList(allow),
			tool.WithLogger(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelInfo}))))
	}
	ctx, tc := context.Background(), tool.NewContext()
	data := grepFixture.valid
	b.Run("Grep/valid/direct", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			in, err := tool.DecodeInput(data)
			if err != nil {
				b.Fatal(err)
			}
			if res := g.Execute(ctx, in, tc); res.IsError {
				b.Fatal(res.Content)
			}
		}
	})
	for _, c := range []struct{ name, entry string }{{"executor", "Grep"}, {"executor-path", "Grep(/src/**)"}} {
		e := executor(c.entry)
		b.Run("Grep/valid/"+c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				in, err := tool.DecodeInput(data)
				if err != nil {
					b.Fatal(err)
				}
				if res := e.Execute(ctx, tool.Call{ID: "call_1", Name: "Grep", Input: in}, tc); res.IsError {
					b.Fatal(res.Content)
				}
			}
		})
	}
}
