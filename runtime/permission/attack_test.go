package permission_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// The attack suite: calls a model could make to get past an allow-list,
// each with the decision it must get, run through tool.NewExecutor with the
// real builtin tools confined to a temporary tree. The cases live in
// testdata/attacks/*.json, one file per category. After every call the
// whole tree (inside and outside the workspace root) is compared with its
// snapshot from before the call: a call that was denied or refused must
// have changed nothing, and an allowed one exactly what the case says.
//
// Placeholders in the cases: ${WS} is the workspace root the builtin tools
// are confined to, ${OUT} a directory beside it (outside the root) and
// ${TMP} their parent.

var discard = slog.New(slog.DiscardHandler)

// input makes the call's input as a model's call arrives: JSON bytes.
func input(t *testing.T, m map[string]any) tool.Input {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	in, err := tool.DecodeInput(b)
	if err != nil {
		t.Fatalf("DecodeInput(%s): %v", b, err)
	}
	return in
}

// attackFile is one testdata/attacks/*.json file.
type attackFile struct {
	// Allow is the allow-list of every case in the file that gives none.
	Allow []string `json:"allow"`
	// Compound turns on the compound-command judge for the file's cases.
	Compound bool `json:"compound"`
	// WorkDir is the working directory of the file's cases that set none
	// (as mcpbridge and toolmcp bind the root): typed operands of known
	// programs are judged against it.
	WorkDir string       `json:"workdir"`
	Cases   []attackCase `json:"cases"`
}

type attackCase struct {
	Name string `json:"name"`
	// Allow, when set, replaces the file's allow-list.
	Allow []string `json:"allow"`
	// Tool is the name the model sends, as it sends it.
	Tool  string         `json:"tool"`
	Input map[string]any `json:"input"`
	// WorkDir is the run's working directory (tool.WorkDirKey); none when
	// empty.
	WorkDir string `json:"workdir"`
	// Before are calls that must succeed first (a Read before an Edit).
	Before []struct {
		Tool  string         `json:"tool"`
		Input map[string]any `json:"input"`
	} `json:"before"`
	// Want is the decision: "allow" (the tool ran and succeeded), "deny"
	// (the executor refused it by the allow-list: tool.ErrNotAllowed, no
	// tool code ran) or "refuse" (permitted, but the tool refused or
	// failed, e.g. its os.Root confinement held).
	Want string `json:"want"`
	// Changes lists the paths (relative to ${TMP}) an allowed call
	// changes; every other path must stay as it was.
	Changes []string `json:"changes"`
	// Contains must appear in the result's content.
	Contains string `json:"contains"`
	// Reveals marks a case whose list may show secret/ files' content.
	Reveals bool `json:"reveals"`
}

// Contents of the tree's files. No output may show a secret's content
// unless the case says so, and none may ever show what lies outside the
// workspace root.
const (
	secretContent  = "CONTENT-secret"
	outsideContent = "CONTENT-outside"
)

// evalTemp returns t.TempDir() with its symbolic links resolved.
func evalTemp(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// treePool hands each case an attack tree exactly as attackTree builds it.
// Building one (twenty files, fifteen links, their directories) and
// removing it again was most of a case's cost, and most cases change
// nothing: a case gives its tree back when, once its tools and background
// commands are closed, a fresh snapshot equals the one taken when the tree
// was built; any other tree is left for the test's TempDir cleanup.
type treePool struct {
	base string // every tree is a directory in base
	// sh is the one local shell of every case: a Local finds out once
	// how it can contain a command's processes (cgroups, /proc), which
	// was the next largest cost of a case.
	sh   *shell.Local
	mu   sync.Mutex
	free []pooledTree
}

type pooledTree struct {
	dir  string
	snap map[string]entry // the tree as attackTree built it
}

// get returns ${TMP} of a pristine tree, given back when t ends, and the
// snapshot of the tree as attackTree built it (do not change it).
func (p *treePool) get(t *testing.T) (string, map[string]entry) {
	t.Helper()
	p.mu.Lock()
	var tr pooledTree
	if n := len(p.free); n > 0 {
		tr, p.free = p.free[n-1], p.free[:n-1]
	}
	p.mu.Unlock()
	if tr.dir == "" {
		dir, err := os.MkdirTemp(p.base, "tree")
		if err != nil {
			t.Fatal(err)
		}
		attackTree(t, dir)
		tr = pooledTree{dir: dir, snap: snapshot(t, dir)}
	}
	t.Cleanup(func() {
		if t.Failed() || len(changed(tr.snap, snapshot(t, tr.dir))) != 0 {
			return
		}
		p.mu.Lock()
		p.free = append(p.free, tr)
		p.mu.Unlock()
	})
	return tr.dir, tr.snap
}

// attackTree builds the tree the cases run on in the empty directory tmp,
// which becomes ${TMP}.
func attackTree(t *testing.T, tmp string) {
	t.Helper()
	ws, out := filepath.Join(tmp, "ws"), filepath.Join(tmp, "out")
	files := map[string]string{
		"ws/allowed/a.txt":        "alpha CONTENT-allowed-a\nsecond line\n",
		"ws/allowed/sub/b.txt":    "beta CONTENT-allowed-b\n",
		"ws/allowed/café.txt":     "NFC CONTENT-allowed-cafe\n",
		"ws/allowed/Upper.txt":    "CONTENT-allowed-upper\n",
		"ws/secret/s.txt":         secretContent + "\n",
		"ws/secret/sub/deep.txt":  secretContent + "-deep\n",
		"ws/allowedx/near.txt":    secretContent + "-near\n",
		"ws/top.txt":              secretContent + "-top\n",
		"out/o.txt":               outsideContent + "\n",
		"out/sub/o2.txt":          outsideContent + "-2\n",
		"ws/allowed/dir/keep.txt": "CONTENT-allowed-keep\n",
	}
	for name, content := range files {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"ws/allowed/to-secret":     "../secret/s.txt",
		"ws/allowed/to-secret-abs": filepath.Join(ws, "secret/s.txt"),
		"ws/allowed/to-secret-dir": "../secret",
		"ws/allowed/to-out":        filepath.Join(out, "o.txt"),
		"ws/allowed/to-out-rel":    "../../out/o.txt",
		"ws/allowed/to-out-dir":    out,
		"ws/allowed/up":            "..",
		"ws/allowed/dangling":      "../secret/new.txt",
		"ws/allowed/dangling-out":  filepath.Join(out, "new.txt"),
		"ws/allowed/chain1":        "chain2",
		"ws/allowed/chain2":        "../secret/s.txt",
		"ws/allowed/loop":          "loop",
		"ws/allowed/to-a":          "a.txt",
		"ws/allowed/to-sub":        "sub",
		"ws/secret/to-allowed":     "../allowed/a.txt",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(tmp, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
}

// entry is what a snapshot records of one path.
type entry struct {
	Mode    fs.FileMode
	Link    string
	Content string // sha256 of a regular file's bytes
}

// snapshot records every path under dir.
func snapshot(t *testing.T, dir string) map[string]entry {
	t.Helper()
	m := map[string]entry{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		e := entry{Mode: fi.Mode()}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			e.Link, err = os.Readlink(p)
		case fi.Mode().IsRegular():
			var b []byte
			b, err = os.ReadFile(p)
			e.Content = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		m[filepath.ToSlash(rel)] = e
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// changed lists the paths whose entries differ between two snapshots.
func changed(before, after map[string]entry) []string {
	var out []string
	for p, e := range after {
		if b, ok := before[p]; !ok || b != e {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// expand replaces the placeholders in every string of v.
func expand(v any, r *strings.Replacer) any {
	switch v := v.(type) {
	case string:
		return r.Replace(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[r.Replace(k)] = expand(x, r)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = expand(x, r)
		}
		return out
	}
	return v
}

func expandAll(ss []string, r *strings.Replacer) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = r.Replace(s)
	}
	return out
}

// decision names how a call ended, as the cases spell it.
func decision(res tool.Result) string {
	switch {
	case errors.Is(res.Err, tool.ErrNotAllowed):
		return "deny"
	case res.IsError:
		return "refuse"
	}
	return "allow"
}

func loadAttacks(t *testing.T) map[string]attackFile {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "attacks", "*.json"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no attack files: %v", err)
	}
	out := map[string]attackFile{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		var f attackFile
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&f); err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		out[strings.TrimSuffix(filepath.Base(n), ".json")] = f
	}
	return out
}

// TestAttacks runs every case of testdata/attacks.
func TestAttacks(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the attack tree uses Linux paths and bash")
	}
	files := loadAttacks(t)
	trees := &treePool{base: evalTemp(t), sh: shell.NewLocal()}
	total := 0
	counts := map[string]int{}
	for cat, f := range files {
		for _, c := range f.Cases {
			counts[c.Want]++
			total++
			t.Run(cat+"/"+c.Name, func(t *testing.T) {
				t.Parallel()
				runAttack(t, trees, f, c)
			})
		}
	}
	t.Logf("%d attack cases in %d categories: %d allowed, %d denied, %d refused",
		total, len(files), counts["allow"], counts["deny"], counts["refuse"])
	if total < 150 {
		t.Errorf("%d attack cases; the suite promises at least 150", total)
	}
}

func runAttack(t *testing.T, trees *treePool, f attackFile, c attackCase) {
	switch c.Want {
	case "allow", "deny", "refuse":
	default:
		t.Fatalf("want %q: must be allow, deny or refuse", c.Want)
	}
	tmp, pristine := trees.get(t) // registered first, so given back after bg.Close
	ws := filepath.Join(tmp, "ws")
	r := strings.NewReplacer("${WS}", ws, "${OUT}", filepath.Join(tmp, "out"), "${TMP}", tmp)
	entries := f.Allow
	if c.Allow != nil {
		entries = c.Allow
	}
	var opts []permission.Option
	if f.Compound {
		opts = append(opts, permission.WithCompoundCommands())
	}
	list, err := permission.ParseWith(expandAll(entries, r), opts...)
	if err != nil {
		t.Fatalf("allow-list: %v", err)
	}
	reg := tool.NewRegistry()
	bg := builtin.NewBackgroundManager(trees.sh, builtin.BackgroundLimits{})
	t.Cleanup(func() { _ = bg.Close() })
	if err := builtin.Register(reg, builtin.Options{Root: ws, Shell: trees.sh, Background: bg}); err != nil {
		t.Fatal(err)
	}
	exec := tool.NewExecutor(reg, tool.WithAllowList(list), tool.WithSchemaMode(schema.Enforce), tool.WithLogger(discard))
	var bindings []tool.Binding
	wd := c.WorkDir
	if wd == "" {
		wd = f.WorkDir
	}
	if wd != "" {
		bindings = append(bindings, tool.WorkDirKey.Bind(r.Replace(wd)))
	}
	tc := tool.NewContext(bindings...)
	ctx := context.Background()
	for _, b := range c.Before {
		res := exec.Execute(ctx, tool.Call{Name: b.Tool, Input: input(t, expand(b.Input, r).(map[string]any))}, tc)
		if res.IsError {
			t.Fatalf("before: %s: %s", b.Tool, res.Content)
		}
	}
	in := map[string]any{}
	if c.Input != nil {
		in = expand(c.Input, r).(map[string]any)
	}
	// With no calls before it, the case starts from the pristine tree:
	// its snapshot is the one to compare with (were anything else to
	// change the tree first, the case would see that change as its own).
	before := pristine
	if len(c.Before) > 0 {
		before = snapshot(t, tmp)
	}
	res := exec.Execute(ctx, tool.Call{ID: "attack", Name: r.Replace(c.Tool), Input: input(t, in)}, tc)
	after := snapshot(t, tmp)

	if got := decision(res); got != c.Want {
		t.Errorf("decision %s, want %s\nresult: %q (err %v)", got, c.Want, res.Content, res.Err)
	}
	want := c.Changes
	if c.Want != "allow" {
		want = nil
	}
	if diff := cmp.Diff(want, changed(before, after)); diff != "" {
		t.Errorf("changes on disk (-want +got):\n%s\nresult: %q", diff, res.Content)
	}
	if strings.Contains(res.Content, outsideContent) {
		t.Errorf("the result shows a file outside the workspace root: %q", res.Content)
	}
	if !c.Reveals && strings.Contains(res.Content, secretContent) {
		t.Errorf("the result shows a file the list does not allow: %q", res.Content)
	}
	if c.Want == "deny" {
		if !strings.HasPrefix(res.Content, "Tool '") || !strings.Contains(res.Content, "not allowed") {
			t.Errorf("denial %q is not the permission sentence", res.Content)
		}
		if strings.Contains(strings.ReplaceAll(res.Content, r.Replace(c.Tool), ""), ws) {
			t.Errorf("denial %q names a path", res.Content)
		}
	}
	// A name no tool has is refused as unknown (issue 32); a suggestion
	// then names only a tool the list offers.
	if _, s, ok := strings.Cut(res.Content, "Did you mean '"); ok && strings.HasPrefix(res.Content, "Unknown tool '") {
		if s, _, _ = strings.Cut(s, "'?"); !list.Offers(s) {
			t.Errorf("unknown-tool answer %q suggests %q, which the list does not offer", res.Content, s)
		}
	}
	if c.Contains != "" && !strings.Contains(res.Content, r.Replace(c.Contains)) {
		t.Errorf("result %q does not contain %q", res.Content, r.Replace(c.Contains))
	}
}
