package tool

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHintsOf(t *testing.T) {
	fn := func(context.Context, Input, Context) Result { return Success("") }
	def := func(d Definition) Definition { d.Name = "T"; return d }
	tests := []struct {
		name string
		tool Tool
		want Hints
	}{
		{"undeclared is mutating", New(def(Definition{}), fn), Hints{}},
		{"read-only", New(def(Definition{SideEffect: ReadOnly}), fn), Hints{ReadOnly: true, Idempotent: true}},
		{"destructive", New(def(Definition{SideEffect: Destructive}), fn), Hints{Destructive: true}},
		{"destructive and open world", New(def(Definition{SideEffect: Destructive, OpenWorld: true}), fn), Hints{Destructive: true, OpenWorld: true}},
		// Safe to run beside others is not idempotent (create_issue).
		{"mutating and safe", New(def(Definition{SideEffect: Mutating, Concurrency: Safe}), fn), Hints{}},
		{"destructive and safe", New(def(Definition{SideEffect: Destructive, Concurrency: Safe}), fn), Hints{Destructive: true}},
		{"the definition's own hints win", New(Definition{Name: "T", Hints: &Hints{OpenWorld: true}, SideEffect: ReadOnly}, fn), Hints{OpenWorld: true}},
		{"nil tool", nil, Hints{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, HintsOf(tt.tool)); diff != "" {
				t.Errorf("HintsOf (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefinitionsCarryHints(t *testing.T) {
	fn := func(context.Context, Input, Context) Result { return Success("") }
	reg := NewRegistry()
	for _, tl := range []Tool{
		New(Definition{Name: "Look", SideEffect: ReadOnly}, fn),
		New(Definition{Name: "Run", SideEffect: Destructive, OpenWorld: true}, fn),
		New(Definition{Name: "Own", Title: "Own hints", Hints: &Hints{Idempotent: true}, SideEffect: Destructive}, fn),
	} {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]Hints{}
	titles := map[string]string{}
	for _, d := range NewExecutor(reg).Definitions() {
		if d.Hints == nil {
			t.Fatalf("definition %s has no hints", d.Name)
		}
		got[d.Name] = *d.Hints
		titles[d.Name] = d.Title
	}
	want := map[string]Hints{
		"Look": {ReadOnly: true, Idempotent: true},
		"Run":  {Destructive: true, OpenWorld: true},
		"Own":  {Idempotent: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hints (-want +got):\n%s", diff)
	}
	if titles["Own"] != "Own hints" {
		t.Errorf("title = %q, want it passed through", titles["Own"])
	}
}

func TestPartsText(t *testing.T) {
	tests := []struct {
		name  string
		parts []Part
		want  string
	}{
		{"text", []Part{TextOf("hello")}, "hello"},
		{"image", []Part{ImageOf([]byte{1, 2, 3}, "image/png")}, "[image: image/png, 3 bytes]"},
		{"audio without type", []Part{AudioOf([]byte{1}, "")}, "[audio: unknown type, 1 bytes]"},
		{"text resource", []Part{ResourceTextOf("file:///a.txt", "text/plain", "contents")}, "contents"},
		{"blob resource", []Part{ResourceBlobOf("file:///a.bin", "application/octet-stream", []byte{0, 0})}, "[resource: file:///a.bin, application/octet-stream, 2 bytes]"},
		{"link", []Part{LinkOf("file:///a.txt", "a.txt", "text/plain")}, "[resource: file:///a.txt (a.txt)]"},
		{"link named by its uri", []Part{LinkOf("file:///a.txt", "file:///a.txt", "")}, "[resource: file:///a.txt]"},
		{"several, one a line", []Part{TextOf("Image of a.png:"), ImageOf(make([]byte, 10), "image/png")}, "Image of a.png:\n[image: image/png, 10 bytes]"},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PartsText(tt.parts); got != tt.want {
				t.Errorf("PartsText = %q, want %q", got, tt.want)
			}
			r := SuccessParts(tt.parts...)
			if r.Content != tt.want || r.IsError {
				t.Errorf("SuccessParts = %+v; want Content %q, no error", r, tt.want)
			}
		})
	}
}

func TestContentParts(t *testing.T) {
	if diff := cmp.Diff([]Part{TextOf("plain")}, Success("plain").ContentParts()); diff != "" {
		t.Errorf("text result (-want +got):\n%s", diff)
	}
	img := ImageOf([]byte("x"), "image/gif")
	if diff := cmp.Diff([]Part{img}, SuccessParts(img).ContentParts()); diff != "" {
		t.Errorf("parts result (-want +got):\n%s", diff)
	}
}

type outValue struct {
	N int `json:"n"`
}

func TestRenderStructured(t *testing.T) {
	tests := []struct {
		name           string
		in             any
		wantContent    string
		wantStructured any
		wantError      bool
	}{
		{"struct", outValue{N: 2}, `{"n":2}`, outValue{N: 2}, false},
		{"pointer", &outValue{N: 3}, `{"n":3}`, &outValue{N: 3}, false},
		{"string stays text", "hi", "hi", nil, false},
		{"result as it is", Success("r"), "r", nil, false},
		{"error", errString("bad"), "bad", nil, true},
		{"unencodable", func() {}, "", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := RenderStructured(tt.in)
			if r.IsError != tt.wantError {
				t.Fatalf("IsError = %v, want %v (%q)", r.IsError, tt.wantError, r.Content)
			}
			if tt.wantContent != "" && r.Content != tt.wantContent {
				t.Errorf("Content = %q, want %q", r.Content, tt.wantContent)
			}
			if diff := cmp.Diff(tt.wantStructured, r.Structured); diff != "" {
				t.Errorf("Structured (-want +got):\n%s", diff)
			}
		})
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func TestProgressAndLoggerThroughExecutor(t *testing.T) {
	var mu sync.Mutex
	var reports []Progress
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	reg := NewRegistry()
	err := reg.Register(New(Definition{Name: "Work"}, func(ctx context.Context, _ Input, tc Context) Result {
		if !tc.ReportsProgress() {
			return Failure("no progress reporter")
		}
		for i := 1; i <= 3; i++ {
			tc.ReportProgress(ctx, Progress{Done: float64(i), Total: 3, Message: "step"})
		}
		tc.Logger().Info("worked", "steps", 3)
		return Success("done")
	}))
	if err != nil {
		t.Fatal(err)
	}
	tc := NewContext(
		ProgressKey.Bind(func(_ context.Context, p Progress) {
			mu.Lock()
			defer mu.Unlock()
			reports = append(reports, p)
		}),
		LoggerKey.Bind(logger),
	)
	res := NewExecutor(reg).Execute(context.Background(), Call{Name: "Work"}, tc)
	if res.IsError {
		t.Fatalf("call failed: %s", res.Content)
	}
	want := []Progress{{1, 3, "step"}, {2, 3, "step"}, {3, 3, "step"}}
	if diff := cmp.Diff(want, reports); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	if got := strings.TrimSpace(logs.String()); got != "level=INFO msg=worked steps=3" {
		t.Errorf("log = %q", got)
	}
}

func TestProgressAndLoggerAbsent(t *testing.T) {
	var tc Context
	if tc.ReportsProgress() {
		t.Error("the zero context reports progress")
	}
	tc.ReportProgress(context.Background(), Progress{Done: 1}) // must not panic
	tc.Logger().Info("dropped")
	if tc.Logger().Enabled(context.Background(), slog.LevelError) {
		t.Error("the zero context's logger is enabled")
	}
}

func TestLimitCutsTextParts(t *testing.T) {
	img := ImageOf(make([]byte, 50), "image/png")
	reg := NewRegistry()
	err := reg.Register(New(Definition{Name: "Big"}, func(context.Context, Input, Context) Result {
		return SuccessParts(TextOf(strings.Repeat("a", 30)), img, TextOf(strings.Repeat("b", 30)), TextOf("c"))
	}))
	if err != nil {
		t.Fatal(err)
	}
	res := NewExecutor(reg, WithMaxResultBytes(40)).Execute(context.Background(), Call{Name: "Big"}, Context{})
	want := []Part{
		TextOf(strings.Repeat("a", 30)),
		img,
		TextOf(strings.Repeat("b", 10)),
		TextOf(res.Content[strings.LastIndex(res.Content, "[Tool 'Big'"):]),
	}
	if diff := cmp.Diff(want, res.Parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if !strings.Contains(res.Content, "the output was cut at") {
		t.Errorf("content not cut: %q", res.Content)
	}
}
