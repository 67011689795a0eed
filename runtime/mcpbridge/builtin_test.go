package mcpbridge_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// The builtin tools as an SDK client sees them: titles and annotations
// from their declarations, and an image from Read.
func TestBuiltinToolsOverMCP(t *testing.T) {
	root := t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 2, 3))
	img.Set(1, 1, color.RGBA{G: 255, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	pic := filepath.Join(root, "pic.png")
	if err := os.WriteFile(pic, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	if err := builtin.Register(reg, builtin.Options{Root: root, Shell: shell.NewLocal()}); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, reg)
	res, err := f.cs.ListTools(testContext(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		Title                                   string
		ReadOnly, Destructive, Idempotent, Open bool
	}
	got := map[string]seen{}
	for _, tl := range res.Tools {
		a := tl.Annotations
		if a == nil || a.OpenWorldHint == nil || (!a.ReadOnlyHint && a.DestructiveHint == nil) {
			t.Fatalf("%s: annotations %+v do not say every hint", tl.Name, a)
		}
		got[tl.Name] = seen{tl.Title, a.ReadOnlyHint, a.DestructiveHint != nil && *a.DestructiveHint, a.IdempotentHint, *a.OpenWorldHint}
	}
	want := map[string]seen{
		"Read": {Title: "Read file", ReadOnly: true, Idempotent: true},
		"Glob": {Title: "Find files by name", ReadOnly: true, Idempotent: true},
		"Grep": {Title: "Search file contents", ReadOnly: true, Idempotent: true},
		// They replace what was there.
		"Write": {Title: "Write file", Destructive: true},
		"Edit":  {Title: "Edit file", Destructive: true},
		// A read consumes the output it returns, and filter discards lines.
		"BashOutput": {Title: "Read background command output", Destructive: true},
		// It stops a command; a second call finds it stopped.
		"KillShell": {Title: "Stop background command", Destructive: true, Idempotent: true},
		// Writing the same list twice leaves the same list.
		"TodoWrite": {Title: "Update todo list", Idempotent: true},
		"Bash":      {Title: "Run shell command", Destructive: true, Open: true},
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: hints %+v not checked; add it to the table", name, got[name])
		}
	}
	for name, w := range want {
		if diff := cmp.Diff(w, got[name]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}

	call, err := f.cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "Read", Arguments: map[string]any{"file_path": pic}})
	if err != nil {
		t.Fatal(err)
	}
	if call.IsError || len(call.Content) != 2 {
		t.Fatalf("Read of an image = %s", contentText(call))
	}
	ic, ok := call.Content[1].(*mcp.ImageContent)
	if !ok || ic.MIMEType != "image/png" || !bytes.Equal(ic.Data, buf.Bytes()) {
		t.Errorf("second block = %#v, want the PNG", call.Content[1])
	}
	if got, want := contentText(call), "Image "+pic+" (PNG image, 2x3, "+itoa(buf.Len())+" bytes):"; got != want {
		t.Errorf("caption = %q, want %q", got, want)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
