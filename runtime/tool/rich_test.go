package tool

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHints derives the hints of every combination of the behaviours a
// definition (a generated tool's directives) declares: the side-effect
// level (undeclared, read-only, mutating, destructive), idempotent, open
// world and concurrency. Concurrency changes nothing: a tool safe to run
// beside others is not idempotent for it (create_issue). A definition
// carrying the derived hints itself registers.
func TestHints(t *testing.T) {
	fn := func(context.Context, Input, Context) Result { return Success("") }
	levels := []struct {
		name  string
		level SideEffect
		// the hints of the level, without and with Idempotent
		plain, idem Hints
	}{
		{"undeclared", 0, Hints{}, Hints{Idempotent: true}},
		{"read-only", ReadOnly, Hints{ReadOnly: true, Idempotent: true}, Hints{ReadOnly: true, Idempotent: true}},
		{"mutating", Mutating, Hints{}, Hints{Idempotent: true}},
		{"destructive", Destructive, Hints{Destructive: true}, Hints{Destructive: true, Idempotent: true}},
	}
	for _, l := range levels {
		for _, idem := range []bool{false, true} {
			for _, open := range []bool{false, true} {
				for _, conc := range []Concurrency{Sequential, Safe} {
					name := fmt.Sprintf("%s/idempotent=%v/open-world=%v/%v", l.name, idem, open, conc)
					t.Run(name, func(t *testing.T) {
						d := Definition{Name: "T", SideEffect: l.level, Idempotent: idem, OpenWorld: open, Concurrency: conc}
						want := l.plain
						if idem {
							want = l.idem
						}
						want.OpenWorld = open
						reg := NewRegistry()
						if err := reg.Register(New(d, fn)); err != nil {
							t.Fatalf("Register: %v", err)
						}
						defs := NewExecutor(reg).Definitions()
						if diff := cmp.Diff(want, *defs[0].Hints); diff != "" {
							t.Errorf("hints (-want +got):\n%s", diff)
						}
						d.Hints = &want
						if err := NewRegistry().Register(New(d, fn)); err != nil {
							t.Errorf("Register with the derived hints: %v", err)
						}
					})
				}
			}
		}
	}
}

// TestContradictingHints: hints of a definition's own that say something
// else than its behaviours are a registration error naming each of them.
func TestContradictingHints(t *testing.T) {
	fn := func(context.Context, Input, Context) Result { return Success("") }
	const prefix = `register: tool "T": its hints contradict its declared behaviours (leave Hints nil to have them derived): `
	tests := []struct {
		name string
		def  Definition
		want string
	}{
		{"destructive hint on a mutating tool", Definition{SideEffect: Mutating, Hints: &Hints{Destructive: true}},
			"Hints.Destructive is true, but SideEffect is mutating"},
		{"read-only hint on an undeclared tool", Definition{Hints: &Hints{ReadOnly: true, Idempotent: true}},
			"Hints.ReadOnly is true, but SideEffect is mutating; Hints.Idempotent is true, but Idempotent is false and SideEffect is mutating"},
		{"a read-only tool not idempotent", Definition{SideEffect: ReadOnly, Hints: &Hints{ReadOnly: true}},
			"Hints.Idempotent is false, but Idempotent is false and SideEffect is read-only"},
		{"open world left out", Definition{SideEffect: Destructive, OpenWorld: true, Hints: &Hints{Destructive: true}},
			"Hints.OpenWorld is false, but OpenWorld is true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.def.Name = "T"
			err := NewRegistry().Register(New(tt.def, fn))
			if err == nil || err.Error() != prefix+tt.want {
				t.Errorf("Register = %v, want %s", err, prefix+tt.want)
			}
		})
	}
}

func TestPartsText(t *testing.T) {
	tests := []struct {
		name  string
		parts []Part
		want  string
	}{
		{"text", []Part{Part{Kind: TextPart, Text: "hello"}}, "hello"},
		{"image", []Part{Part{Kind: ImagePart, Data: []byte{1, 2, 3}, MIMEType: "image/png"}}, "[image: image/png, 3 bytes]"},
		{"audio without type", []Part{Part{Kind: AudioPart, Data: []byte{1}, MIMEType: ""}}, "[audio: unknown type, 1 bytes]"},
		{"text resource", []Part{Part{Kind: ResourcePart, URI: "file:///a.txt", MIMEType: "text/plain", Text: "contents"}}, "contents"},
		{"blob resource", []Part{Part{Kind: ResourcePart, URI: "file:///a.bin", MIMEType: "application/octet-stream", Data: []byte{0, 0}}}, "[resource: file:///a.bin, application/octet-stream, 2 bytes]"},
		{"link", []Part{Part{Kind: ResourceLinkPart, URI: "file:///a.txt", Name: "a.txt", MIMEType: "text/plain"}}, "[resource: file:///a.txt (a.txt)]"},
		{"link named by its uri", []Part{Part{Kind: ResourceLinkPart, URI: "file:///a.txt", Name: "file:///a.txt", MIMEType: ""}}, "[resource: file:///a.txt]"},
		{"several, one a line", []Part{Part{Kind: TextPart, Text: "Image of a.png:"}, Part{Kind: ImagePart, Data: make([]byte, 10), MIMEType: "image/png"}}, "Image of a.png:\n[image: image/png, 10 bytes]"},
		{"none", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := partsText(tt.parts); got != tt.want {
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
	if diff := cmp.Diff([]Part{Part{Kind: TextPart, Text: "plain"}}, Success("plain").ContentParts()); diff != "" {
		t.Errorf("text result (-want +got):\n%s", diff)
	}
	img := Part{Kind: ImagePart, Data: []byte("x"), MIMEType: "image/gif"}
	if diff := cmp.Diff([]Part{img}, SuccessParts(img).ContentParts()); diff != "" {
		t.Errorf("parts result (-want +got):\n%s", diff)
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
	img := Part{Kind: ImagePart, Data: make([]byte, 50), MIMEType: "image/png"}
	reg := NewRegistry()
	err := reg.Register(New(Definition{Name: "Big"}, func(context.Context, Input, Context) Result {
		return SuccessParts(Part{Kind: TextPart, Text: strings.Repeat("a", 30)}, img, Part{Kind: TextPart, Text: strings.Repeat("b", 30)}, Part{Kind: TextPart, Text: "c"})
	}))
	if err != nil {
		t.Fatal(err)
	}
	res := NewExecutor(reg, WithMaxResultBytes(40)).Execute(context.Background(), Call{Name: "Big"}, Context{})
	want := []Part{
		Part{Kind: TextPart, Text: strings.Repeat("a", 30)},
		img,
		Part{Kind: TextPart, Text: strings.Repeat("b", 10)},
		Part{Kind: TextPart, Text: res.Content[strings.LastIndex(res.Content, "[Tool 'Big'"):]},
	}
	if diff := cmp.Diff(want, res.Parts); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
	if !strings.Contains(res.Content, "the output was cut at") {
		t.Errorf("content not cut: %q", res.Content)
	}
}
