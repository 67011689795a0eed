package builtin

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// quiet keeps the executor's expected warnings out of the test output.
var quiet = tool.WithLogger(slog.New(slog.DiscardHandler))

var fileTools = []string{ReadName, WriteName, EditName, GlobName, GrepName, TodoWriteName}

// withoutShell returns the tools Register adds when no shell is given:
// every builtin tool of this build but the Bash tools, and ToolSearch,
// which is only made where some tools are deferred.
func withoutShell() []string {
	var out []string
	for _, n := range known() {
		if n != BashName && n != BashOutputName && n != KillShellName && n != ToolSearchName {
			out = append(out, n)
		}
	}
	return out
}

func TestRegister(t *testing.T) {
	r := tool.NewRegistry()
	if err := Register(r, Options{Root: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if got := r.Names(); !slices.Equal(got, withoutShell()) {
		t.Errorf("registered %v, want %v (no Bash tools without a shell)", got, withoutShell())
	}
	if err := Register(r, Options{}); !errors.Is(err, tool.ErrDuplicate) {
		t.Errorf("second Register: err = %v, want ErrDuplicate", err)
	}
	if r.Len() != len(withoutShell()) {
		t.Errorf("a failed Register left %d tools", r.Len())
	}
}

func TestRegisterOptions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	must(t, os.WriteFile(file, nil, 0o644))
	tests := []struct {
		name    string
		opts    Options
		want    []string
		wantErr string
	}{
		{name: "unconfined", opts: Options{}, want: withoutShell()},
		{name: "some", opts: Options{Tools: []string{GrepName, ReadName}}, want: []string{ReadName, GrepName}},
		{name: "unknown", opts: Options{Tools: []string{"Reed"}},
			wantErr: `builtin: unknown tool "Reed"; want one of ` + strings.Join(known(), ", ")},
		{name: "bash without a shell", opts: Options{Tools: []string{BashName}}, wantErr: `builtin: tool "Bash" needs Options.Shell`},
		{name: "missing root", opts: Options{Root: filepath.Join(file, "nope")}, wantErr: "builtin: workspace root: stat " + filepath.Join(file, "nope") + ": not a directory"},
		{name: "root is a file", opts: Options{Root: file}, wantErr: `builtin: workspace root "` + file + `" is not a directory`},
		{name: "nul root", opts: Options{Root: "a\x00b"}, wantErr: "builtin: the workspace root contains a NUL byte"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "bash without a shell" {
				if _, ok := makers[BashName]; !ok {
					t.Skip("the Bash tools are not in this build")
				}
			}
			r := tool.NewRegistry()
			err := Register(r, tt.opts)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("err = %v, want %s", err, tt.wantErr)
				}
				if r.Len() != 0 {
					t.Errorf("registered %v after an error", r.Names())
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Names(); !slices.Equal(got, tt.want) {
				t.Errorf("registered %v, want %v", got, tt.want)
			}
		})
	}
	if err := Register(nil, Options{}); err == nil {
		t.Error("Register(nil) succeeded")
	}
}

func TestDefinitions(t *testing.T) {
	ts, err := Tools(Options{Tools: fileTools})
	if err != nil {
		t.Fatal(err)
	}
	behaviour := map[string]struct {
		conc    tool.Concurrency
		effect  tool.SideEffect
		subject string
	}{
		ReadName:      {tool.Safe, tool.ReadOnly, "file_path"},
		WriteName:     {tool.Sequential, tool.Destructive, "file_path"},
		EditName:      {tool.Sequential, tool.Destructive, "file_path"},
		GlobName:      {tool.Safe, tool.ReadOnly, "path"},
		GrepName:      {tool.Safe, tool.ReadOnly, "path"},
		TodoWriteName: {tool.Sequential, tool.Mutating, ""},
	}
	for _, tl := range ts {
		d := tl.Definition()
		t.Run(d.Name, func(t *testing.T) {
			if d.InputSchema["additionalProperties"] != false {
				t.Error("the schema does not set additionalProperties: false")
			}
			if _, err := schema.Compile(d.InputSchema); err != nil {
				t.Errorf("the gate cannot read the schema: %v", err)
			}
			b := behaviour[d.Name]
			if got := tl.Definition().Concurrency; got != b.conc {
				t.Errorf("concurrency = %v, want %v", got, b.conc)
			}
			if got := tl.Definition().SideEffect; got != b.effect {
				t.Errorf("side effect = %v, want %v", got, b.effect)
			}
			sd := tl.Definition().Subject
			if b.subject == "" {
				if sd.Declared() {
					if _, judged := sd.Read(tool.NewInput(map[string]any{"file_path": "/x", "path": "/x"})); judged {
						t.Error("TodoWrite gives a permission subject")
					}
				}
				return
			}
			if !sd.Declared() {
				t.Fatal("no permission subject")
			}
			s, judged := sd.Read(tool.NewInput(map[string]any{b.subject: "/w/a.txt"}))
			if !judged || s.Kind != tool.PathSubject || s.Value != "/w/a.txt" {
				t.Errorf("subject = %+v, %v; want PATH /w/a.txt", s, judged)
			}
		})
	}
	props := func(name string) []string {
		for _, tl := range ts {
			if d := tl.Definition(); d.Name == name {
				var keys []string
				for k := range d.InputSchema["properties"].(map[string]any) {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				return keys
			}
		}
		return nil
	}
	want := []string{"-A", "-B", "-C", "-i", "-n", "glob", "head_limit", "multiline", "offset", "output_mode", "path", "pattern", "type"}
	if got := props(GrepName); !slices.Equal(got, want) {
		t.Errorf("Grep's parameters = %v, want the 13 %v", got, want)
	}
	for _, tl := range ts {
		d := tl.Definition()
		if d.Name == ReadName {
			p := d.InputSchema["properties"].(map[string]any)
			for _, k := range []string{"offset", "limit"} {
				if typ := p[k].(map[string]any)["type"]; typ != "integer" {
					t.Errorf("Read's %s is %v, want integer", k, typ)
				}
			}
		}
		if d.Name == GrepName && !strings.Contains(d.Description, "linear time") {
			t.Error(`Grep's description does not say "linear time"`)
		}
	}
}

// call runs one call through an executor.
func call(ex *tool.Executor, tc tool.Context, name string, args map[string]any) tool.Result {
	return ex.Execute(context.Background(), tool.Call{ID: "c1", Name: name, Input: tool.NewInput(args)}, tc)
}

func TestExecutor(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	must(t, os.WriteFile(filepath.Join(root, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644))
	r := tool.NewRegistry()
	must(t, Register(r, Options{Root: root}))
	ex := tool.NewExecutor(r, tool.WithSchemaMode(schema.Enforce), quiet)
	tc := tool.NewContext(tool.WorkDirKey.Bind(root))
	p := filepath.Join(root, "main.go")

	steps := []struct {
		tool    string
		args    map[string]any
		want    string
		wantErr bool
	}{
		{EditName, map[string]any{"file_path": "main.go", "old_string": "main() {}", "new_string": "main() { run() }"},
			"File has not been read yet: " + p + ". Read it first before editing it.", true},
		{ReadName, map[string]any{"file_path": "main.go", "limit": 1.0}, "     1→package main\n\n[Showing lines 1-1. The file has more lines: read on with offset=2.]", false},
		{ReadName, map[string]any{"file_path": "main.go", "offset": 2.0}, "     2→\n     3→func main() {}", false},
		{ReadName, map[string]any{"file_path": "main.go", "offset": 0}, "offset must be >= 1, got: 0", true},
		{ReadName, map[string]any{"file_path": "main.go", "limit": 2.5}, "Parameter 'limit' must be an integer. The tool was not executed.", true},
		{ReadName, map[string]any{"file_paht": "main.go"},
			"Parameter 'file_path' is required (string).\nUnknown parameter 'file_paht'. Did you mean 'file_path'? The tool was not executed.", true},
		{EditName, map[string]any{"file_path": "main.go", "old_string": "main() {}", "new_string": "main() { run() }"},
			"The file " + p + " was edited: 1 replacement made.", false},
		{WriteName, map[string]any{"file_path": "run.go", "content": "package main\n\nfunc run() {}\n"},
			"The file " + filepath.Join(root, "run.go") + " was created (28 bytes).", false},
		{GlobName, map[string]any{"pattern": "*.go"}, "", false},
		{GrepName, map[string]any{"pattern": `func \w+\(`, "output_mode": "count"}, "", false},
		{GrepName, map[string]any{"pattern": "x", "output_mode": "lines"},
			"Parameter 'output_mode' must be one of [content, files_with_matches, count], but was 'lines'. The tool was not executed.", true},
		{TodoWriteName, map[string]any{"todos": []any{map[string]any{"content": "Ship", "status": "in_progress", "activeForm": "Shipping"}}},
			"Todo list updated: 1 todo (0 completed, 1 in progress, 0 pending). Now: Shipping.", false},
		{ReadName, map[string]any{"file_path": "../etc/passwd"},
			"The path ../etc/passwd is outside the workspace. Only files inside the workspace can be used.", true},
	}
	for i, s := range steps {
		res := call(ex, tc, s.tool, s.args)
		if res.IsError != s.wantErr || (s.want != "" && res.Content != s.want) {
			t.Errorf("step %d (%s): got error=%v %q\nwant error=%v %q", i, s.tool, res.IsError, res.Content, s.wantErr, s.want)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != "package main\n\nfunc main() { run() }\n" {
		t.Errorf("main.go = %q", b)
	}
}

func TestExecutorPermissions(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	must(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "docs", "a.md"), []byte("# A\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "secret.txt"), []byte("s\n"), 0o644))
	r := tool.NewRegistry()
	must(t, Register(r, Options{Root: root}))
	list, err := permission.Parse("Read(" + root + "/docs/**)")
	must(t, err)
	ex := tool.NewExecutor(r, tool.WithAllowList(list), quiet)
	tc := tool.NewContext(tool.WorkDirKey.Bind(root))
	if res := call(ex, tc, ReadName, map[string]any{"file_path": "docs/a.md"}); res.IsError || res.Content != "     1→# A" {
		t.Errorf("allowed read: %+v", res)
	}
	for _, p := range []string{"secret.txt", "docs/../secret.txt", filepath.Join(root, "secret.txt")} {
		if res := call(ex, tc, ReadName, map[string]any{"file_path": p}); !res.IsError || !errors.Is(res.Err, tool.ErrNotAllowed) {
			t.Errorf("read of %s: %+v, want not allowed", p, res)
		}
	}
	if res := call(ex, tc, WriteName, map[string]any{"file_path": "docs/b.md", "content": "x"}); !res.IsError {
		t.Errorf("write not on the list: %+v", res)
	}
}

// Glob and Grep without a path search the working directory, so that is
// what the allow-list judges: allowed inside the pattern, denied outside,
// and an absolute pattern cannot reach past it.
func TestSearchToolsWithoutPath(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	must(t, os.MkdirAll(filepath.Join(root, "docs"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "docs", "a.md"), []byte("needle\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "secret.txt"), []byte("needle\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(root, "private"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "private", "secret-name.txt"), []byte("x\n"), 0o644))
	must(t, os.Symlink("../private", filepath.Join(root, "docs", "out")))
	r := tool.NewRegistry()
	must(t, Register(r, Options{Root: root}))
	list, err := permission.Parse("Grep("+root+"/docs/**)", "Glob("+root+"/docs/**)")
	must(t, err)
	ex := tool.NewExecutor(r, tool.WithAllowList(list), quiet)
	inDocs := tool.NewContext(tool.WorkDirKey.Bind(filepath.Join(root, "docs")))
	atRoot := tool.NewContext(tool.WorkDirKey.Bind(root))
	tests := []struct {
		name    string
		tc      tool.Context
		tool    string
		args    map[string]any
		allowed bool
	}{
		{"grep in docs", inDocs, GrepName, map[string]any{"pattern": "needle"}, true},
		{"glob in docs", inDocs, GlobName, map[string]any{"pattern": "*.md"}, true},
		{"grep at root", atRoot, GrepName, map[string]any{"pattern": "needle"}, false},
		{"glob at root", atRoot, GlobName, map[string]any{"pattern": "*"}, false},
		{"glob absolute pattern outside", inDocs, GlobName, map[string]any{"pattern": root + "/*.txt"}, false},
		{"glob absolute pattern through a link out", inDocs, GlobName, map[string]any{"pattern": root + "/docs/out/*"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(ex, tt.tc, tt.tool, tt.args)
			if tt.allowed && res.IsError {
				t.Errorf("want allowed: %+v", res)
			}
			if !tt.allowed && !res.IsError {
				t.Errorf("want refused: %+v", res)
			}
			if strings.Contains(res.Content, "secret") {
				t.Errorf("the result reveals a file outside the allowed tree: %q", res.Content)
			}
		})
	}
}

// Two runs through one executor: the second's edit sees the first's.
func TestExecutorTwoRuns(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	p := filepath.Join(root, "f.txt")
	must(t, os.WriteFile(p, []byte("one two\n"), 0o644))
	r := tool.NewRegistry()
	must(t, Register(r, Options{Root: root}))
	ex := tool.NewExecutor(r, quiet)
	runA, runB := tool.NewContext(), tool.NewContext()
	for _, tc := range []tool.Context{runA, runB} {
		if res := call(ex, tc, ReadName, map[string]any{"file_path": p}); res.IsError {
			t.Fatal(res.Content)
		}
	}
	if res := call(ex, runA, EditName, map[string]any{"file_path": p, "old_string": "one", "new_string": "1"}); res.IsError {
		t.Fatal(res.Content)
	}
	res := call(ex, runB, EditName, map[string]any{"file_path": p, "old_string": "two", "new_string": "2"})
	if want := "File has been modified since it was read: " + p + ". Read it again before editing it."; !res.IsError || res.Content != want {
		t.Errorf("second run's edit: %q, want %q", res.Content, want)
	}
	// After reading again, it may.
	call(ex, runB, ReadName, map[string]any{"file_path": p})
	if res := call(ex, runB, EditName, map[string]any{"file_path": p, "old_string": "two", "new_string": "2"}); res.IsError {
		t.Errorf("edit after a fresh read: %q", res.Content)
	}
	if b, _ := os.ReadFile(p); string(b) != "1 2\n" {
		t.Errorf("content = %q", b)
	}
}

// Read, Glob and Grep may run in one parallel batch.
func TestExecutorParallelBatch(t *testing.T) {
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle\n"), 0o644))
	r := tool.NewRegistry()
	must(t, Register(r, Options{Root: root}))
	ex := tool.NewExecutor(r, tool.WithConcurrency(4, 4), quiet)
	calls := []tool.Call{
		{Name: ReadName, Input: tool.NewInput(map[string]any{"file_path": "a.txt"})},
		{Name: GlobName, Input: tool.NewInput(map[string]any{"pattern": "*.txt"})},
		{Name: GrepName, Input: tool.NewInput(map[string]any{"pattern": "needle"})},
	}
	if !ex.Parallel(calls) {
		t.Error("the read-only tools do not run in parallel")
	}
	for i, res := range ex.ExecuteBatch(context.Background(), calls, tool.NewContext()) {
		if res.IsError {
			t.Errorf("call %d: %s", i, res.Content)
		}
	}
	if ex.Parallel(append(calls, tool.Call{Name: EditName})) {
		t.Error("Edit runs in a parallel batch")
	}
}

func TestRegisterCatalog(t *testing.T) {
	c := catalog.New()
	must(t, RegisterCatalog(c, Options{Root: t.TempDir(), Deferred: []string{GrepName, GlobName}}))
	for _, n := range withoutShell() {
		want := tool.Eager
		if n == GrepName || n == GlobName {
			want = tool.Deferred
		}
		if got, ok := c.Loading(n); !ok || got != want {
			t.Errorf("%s: loading %v, %v; want %v", n, got, ok, want)
		}
	}
	if err := RegisterCatalog(c, Options{}); !errors.Is(err, tool.ErrDuplicate) {
		t.Errorf("second RegisterCatalog: err = %v, want ErrDuplicate", err)
	}
	for _, tt := range []struct {
		deferred []string
		want     string
	}{
		{[]string{"Nope"}, `builtin: deferred: unknown tool "Nope"; want one of ` + strings.Join(known(), ", ")},
		{[]string{ToolSearchName}, "builtin: deferred: ToolSearch is always eager, or nothing could find the deferred tools"},
	} {
		if _, ok := makers[tt.deferred[0]]; !ok && tt.deferred[0] == ToolSearchName {
			continue
		}
		if err := RegisterCatalog(catalog.New(), Options{Deferred: tt.deferred}); err == nil || err.Error() != tt.want {
			t.Errorf("deferred %v: err = %v, want %s", tt.deferred, err, tt.want)
		}
	}
}

// TestWriteThroughLinkInLinkedDir: a relative link is followed from the
// directory it really is in. With dir -> x/y and x/y/link -> ../z, a write
// to dir/link writes x/z (what the system resolves), never z.
func TestWriteThroughLinkInLinkedDir(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	must(t, os.MkdirAll(filepath.Join(root, "x", "y"), 0o755))
	must(t, os.Symlink("x/y", filepath.Join(root, "dir")))
	must(t, os.Symlink("../z", filepath.Join(root, "x", "y", "link")))
	r := tool.NewRegistry()
	must(t, Register(r, Options{Root: root}))
	list, err := permission.Parse("Write("+root+"/dir/**)", "Write("+root+"/x/**)")
	must(t, err)
	ex := tool.NewExecutor(r, tool.WithAllowList(list), quiet)
	tc := tool.NewContext(tool.WorkDirKey.Bind(root))
	res := call(ex, tc, WriteName, map[string]any{"file_path": root + "/dir/link", "content": "hi\n"})
	if res.IsError {
		t.Fatalf("write through the link: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(root, "z")); err == nil {
		t.Errorf("the write created %s/z, outside every pattern", root)
	}
	got, err := os.ReadFile(filepath.Join(root, "x", "z"))
	if err != nil || string(got) != "hi\n" {
		t.Errorf("x/z = %q, %v; want the content written through the link", got, err)
	}
}

// TestHintsOfEveryBuiltin: the hints each builtin's directives give it, as
// hosts are shown them (MCP's annotations), for every builtin tool there
// is: a new builtin fails here until its hints are written down.
func TestHintsOfEveryBuiltin(t *testing.T) {
	want := map[string]tool.Hints{
		ReadName: {ReadOnly: true, Idempotent: true},
		GlobName: {ReadOnly: true, Idempotent: true},
		GrepName: {ReadOnly: true, Idempotent: true},
		// They replace what was in a file.
		WriteName: {Destructive: true},
		EditName:  {Destructive: true},
		// It runs any program.
		BashName: {Destructive: true, OpenWorld: true},
		// A read consumes the output it returns, and filter discards the
		// lines that do not match.
		BashOutputName: {Destructive: true},
		// It stops a command; a second call finds it stopped.
		KillShellName: {Destructive: true, Idempotent: true},
		// Writing the same list twice leaves the same list.
		TodoWriteName:  {Idempotent: true},
		ToolSearchName: {ReadOnly: true, Idempotent: true},
	}
	ts, err := Tools(Options{Root: t.TempDir(), Shell: &fakeShell{}})
	if err != nil {
		t.Fatal(err)
	}
	reg := tool.NewRegistry()
	for _, tl := range ts {
		if err := reg.Register(tl); err != nil {
			t.Fatal(err)
		}
	}
	got := map[string]tool.Hints{}
	for _, d := range tool.NewExecutor(reg).Definitions() {
		got[d.Name] = *d.Hints
	}
	// ToolSearch is made where some tools are deferred.
	c := catalog.New()
	if err := RegisterCatalog(c, Options{Root: t.TempDir(), Deferred: []string{GlobName}}); err != nil {
		t.Fatal(err)
	}
	for _, d := range tool.NewExecutor(c.NewRun()).Definitions() {
		if d.Name == ToolSearchName {
			got[d.Name] = *d.Hints
		}
	}
	for _, name := range known() {
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: its hints are not checked; add it to the table", name)
			continue
		}
		if diff := cmp.Diff(w, got[name]); diff != "" {
			t.Errorf("%s hints (-want +got):\n%s", name, diff)
		}
	}
}
