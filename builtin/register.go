package builtin

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/shell"
	"github.com/toolgen/toolgen/runtime/tool"
)

// Options configure the builtin tools.
type Options struct {
	// Root confines the file tools to one directory tree: every path is
	// resolved inside it and opened through an os.Root, so that neither
	// ".." nor a symbolic link can leave it. It is also their working
	// directory when the call's context gives none. Empty leaves the file
	// tools unconfined (permissions still apply).
	Root string
	// Shell runs the Bash tools' commands; nil registers no Bash tools.
	// The Bash and KillShell descriptions say what the shell guarantees
	// about the processes a command starts: for shell.Local and
	// shell.Sandbox what their Containment reports, for any other shell
	// nothing beyond that processes it leaves may keep running.
	Shell shell.Shell
	// PassEnv names the variables of this process's environment that the
	// Bash tools' commands inherit besides the minimal set they always get
	// (shell.MinimalEnv: PATH, HOME, USER, LOGNAME, SHELL, TERM, TMPDIR, TZ,
	// LANG, LANGUAGE, LC_*). An entry ending in "*" passes every name with
	// that prefix ("GOPATH", "GIT_*"); a lone "*" passes the whole
	// environment. Nil or empty means the minimal set only, never the
	// whole environment: tokens and keys in this process's environment do
	// not reach commands unless named here. An entry that is not a name or
	// such a prefix is an error.
	PassEnv []string
	// Background runs the Bash tool's run_in_background commands and is
	// what BashOutput and KillShell read and stop. The caller owns it and
	// closes it when the agent stops, which ends every command still
	// running. Nil gives each Register or Tools call a manager of its own,
	// whose commands end only by their timeout.
	Background *BackgroundManager
	// Tools names the tools to register, in any order; empty means every
	// builtin tool the other options allow. An unknown name, or a Bash tool
	// named without a Shell, is an error.
	Tools []string
	// Deferred names the tools RegisterCatalog adds as deferred (offered
	// once a search finds them); the others are eager. Register ignores
	// it. ToolSearch cannot be deferred.
	Deferred []string
}

// The names of the builtin tools.
const (
	ReadName       = "Read"
	WriteName      = "Write"
	EditName       = "Edit"
	GlobName       = "Glob"
	GrepName       = "Grep"
	TodoWriteName  = "TodoWrite"
	BashName       = "Bash"
	BashOutputName = "BashOutput"
	KillShellName  = "KillShell"
	ToolSearchName = "ToolSearch"
)

// toolOrder is the order tools are registered in.
var toolOrder = []string{
	ReadName, WriteName, EditName, GlobName, GrepName,
	BashName, BashOutputName, KillShellName,
	TodoWriteName, ToolSearchName,
}

// env is what the makers of the builtin tools share for one Register call.
type env struct {
	opts  Options
	files *files
	todos *todos

	mu     sync.Mutex
	shared map[any]any
}

// share returns the value kept under key for this Tools call, made by mk
// the first time it is asked for: state that several tools of one call
// share (the Bash tools' background commands). Use an unexported key type.
func (e *env) share(key any, mk func() any) any {
	e.mu.Lock()
	defer e.mu.Unlock()
	if v, ok := e.shared[key]; ok {
		return v
	}
	if e.shared == nil {
		e.shared = make(map[any]any)
	}
	v := mk()
	e.shared[key] = v
	return v
}

// A maker builds one builtin tool. It returns nil when the options leave
// the tool out (a Bash tool without a Shell), and an error the caller
// reports when the tool cannot be built.
type maker func(e *env) (tool.Tool, error)

// makers holds the builtin tools by name. The file tools are listed here;
// other files of the package (the Bash tools, ToolSearch) add theirs with
// addTool from an init function.
var makers = map[string]maker{
	ReadName:      func(e *env) (tool.Tool, error) { return newReadTool(e.files.readResult), nil },
	WriteName:     func(e *env) (tool.Tool, error) { return newWriteTool(e.files.write), nil },
	EditName:      func(e *env) (tool.Tool, error) { return newEditTool(e.files.edit), nil },
	GlobName:      func(e *env) (tool.Tool, error) { return newGlobTool(e.files.glob), nil },
	GrepName:      func(e *env) (tool.Tool, error) { return newGrepTool(e.files.grep), nil },
	TodoWriteName: func(e *env) (tool.Tool, error) { return newTodoWriteTool(e.todos.write), nil },
}

// addTool adds the maker of a builtin tool; call it from init. A name
// registered twice is a programming mistake and panics.
func addTool(name string, m maker) {
	if _, dup := makers[name]; dup {
		panic(fmt.Sprintf("builtin: tool %q added twice", name))
	}
	makers[name] = m
	if !slices.Contains(toolOrder, name) {
		toolOrder = append(toolOrder, name)
	}
}

// Tools returns the builtin tools the options select, in a fixed order
// (Read, Write, Edit, Glob, Grep, the Bash tools, TodoWrite, ToolSearch),
// for a caller that registers them itself: into a catalog as eager or
// deferred tools, or under its own wrapper. Each call returns new tools
// with their own state.
func Tools(opts Options) ([]tool.Tool, error) {
	ws, err := newWorkspace(opts.Root)
	if err != nil {
		return nil, err
	}
	e := &env{opts: opts, files: &files{ws: ws}, todos: &todos{}}
	want := map[string]bool{}
	for _, n := range opts.Tools {
		if _, ok := makers[n]; !ok {
			return nil, fmt.Errorf("builtin: unknown tool %q; want one of %s", n, strings.Join(known(), ", "))
		}
		want[n] = true
	}
	var out []tool.Tool
	var errs []error
	for _, n := range toolOrder {
		m, ok := makers[n]
		if !ok || (len(want) > 0 && !want[n]) {
			continue
		}
		t, err := m(e)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("builtin: %s: %w", n, err))
		case t == nil && want[n]:
			errs = append(errs, fmt.Errorf("builtin: tool %q needs Options.Shell", n))
		case t != nil:
			out = append(out, t)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// Register registers the builtin tools the options select into r: the file
// tools (Read, Write, Edit, Glob, Grep) confined to opts.Root when it is
// set, TodoWrite, and the Bash tools when opts.Shell is set. It registers
// nothing when an option is wrong or a name is taken.
func Register(r *tool.Registry, opts Options) error {
	if r == nil {
		return errors.New("builtin: register: the registry is nil")
	}
	ts, err := Tools(opts)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if _, dup := r.Find(t.Definition().Name); dup {
			return fmt.Errorf("builtin: register %q: %w", t.Definition().Name, tool.ErrDuplicate)
		}
	}
	for i, t := range ts {
		if err := r.Register(t); err != nil {
			for _, done := range ts[:i] {
				r.Unregister(done.Definition().Name)
			}
			return fmt.Errorf("builtin: %w", err)
		}
	}
	return nil
}

// RegisterCatalog registers the builtin tools the options select into a
// catalog: those named in opts.Deferred as deferred, the others as eager.
// Like Register, it registers nothing when an option is wrong or a name is
// taken.
func RegisterCatalog(c *catalog.Catalog, opts Options) error {
	if c == nil {
		return errors.New("builtin: register: the catalog is nil")
	}
	deferred := map[string]bool{}
	for _, n := range opts.Deferred {
		if _, ok := makers[n]; !ok {
			return fmt.Errorf("builtin: deferred: unknown tool %q; want one of %s", n, strings.Join(known(), ", "))
		}
		if n == ToolSearchName {
			return fmt.Errorf("builtin: deferred: %s is always eager, or nothing could find the deferred tools", n)
		}
		deferred[n] = true
	}
	ts, err := Tools(opts)
	if err != nil {
		return err
	}
	for _, t := range ts {
		if _, dup := c.Find(t.Definition().Name); dup {
			return fmt.Errorf("builtin: register %q: %w", t.Definition().Name, catalog.ErrDuplicate)
		}
	}
	for i, t := range ts {
		l := tool.Eager
		if deferred[t.Definition().Name] {
			l = tool.Deferred
		}
		if err := c.RegisterAs(t, l); err != nil {
			for _, done := range ts[:i] {
				c.Unregister(done.Definition().Name)
			}
			return fmt.Errorf("builtin: %w", err)
		}
	}
	return nil
}

// known returns the names of the builtin tools, in registration order.
func known() []string {
	var out []string
	for _, n := range toolOrder {
		if _, ok := makers[n]; ok {
			out = append(out, n)
		}
	}
	return out
}
