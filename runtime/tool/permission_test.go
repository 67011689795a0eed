package tool

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
)

func permTools() []Tool {
	run := func(name string) func(context.Context, Input, Context) Result {
		return func(context.Context, Input, Context) Result { return Success(name + " ran") }
	}
	pathSchema := map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"file_path": map[string]any{"type": "string"}},
		"required":             []any{"file_path"},
		"additionalProperties": false,
	}
	return []Tool{
		New(Definition{Name: "Read", InputSchema: pathSchema, Subject: SubjectField{Kind: PathSubject, Key: "file_path"}, SideEffect: ReadOnly}, run("Read")),
		New(Definition{Name: "Write", InputSchema: pathSchema, Subject: SubjectField{Kind: PathSubject, Key: "file_path"}}, run("Write")),
		New(Definition{Name: "Bash", Subject: SubjectField{Kind: CommandSubject, Key: "command"}, SideEffect: Destructive}, run("Bash")),
		New(Definition{Name: "Fetch", Rule: func(pattern string, in Input, _ Context) bool {
			u, _ := ParamOr[string](in, "url", "")
			return pattern == "domain:example.com" && u == "https://example.com/"
		}}, run("Fetch")),
		New(Definition{Name: "Plain"}, run("Plain")),
	}
}

func TestAllowList(t *testing.T) {
	list, err := permission.ParseWith(
		[]string{"Read(/tmp/**)", "Bash(git:*)", "Fetch(domain:example.com)", "Plain(/anything/**)", "Ghost"},
		permission.WithKind("Plain", permission.Path))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, tool, args, workDir string
		want                      Result
	}{
		{name: "path allowed", tool: "Read", args: `{"file_path":"/tmp/a.txt"}`, want: Success("Read ran")},
		{name: "functions prefix", tool: "functions.Read", args: `{"file_path":"/tmp/a.txt"}`, want: Success("Read ran")},
		{name: "relative with workdir", tool: "Read", args: `{"file_path":"a.txt"}`, workDir: "/tmp", want: Success("Read ran")},
		{name: "relative without workdir", tool: "Read", args: `{"file_path":"a.txt"}`, want: Failure("Tool 'Read' is not allowed to access this path. Give an absolute path.")},
		{name: "traversal", tool: "Read", args: `{"file_path":"/tmp/../etc/passwd"}`, want: Failure("Tool 'Read' is not allowed to access this path.")},
		{name: "path outside", tool: "Read", args: `{"file_path":"/etc/passwd"}`, want: Failure("Tool 'Read' is not allowed to access this path.")},
		{name: "blank subject", tool: "Read", args: `{"file_path":"  "}`, want: Failure("Tool 'Read' is not allowed to access this path. Give the path.")},
		{name: "mistyped subject", tool: "Read", args: `{"file_path":3}`, want: Failure("Tool 'Read' is not allowed to access this path. Give the path.")},
		{name: "command allowed", tool: "Bash", args: `{"command":"git status"}`, want: Success("Bash ran")},
		{name: "command prefix only", tool: "Bash", args: `{"command":"gitk"}`, want: Failure("Tool 'Bash' is not allowed to run this command.")},
		{name: "command injection", tool: "Bash", args: `{"command":"git status; rm -rf /"}`, want: Failure("Tool 'Bash' is not allowed to run this command. Run one simple command, without shell operators, expansions or control characters.")},
		{name: "custom rule allows", tool: "Fetch", args: `{"url":"https://example.com/"}`, want: Success("Fetch ran")},
		{name: "custom rule denies", tool: "Fetch", args: `{"url":"https://evil.test/"}`, want: Failure("Tool 'Fetch' is not allowed to make this call.")},
		{name: "pattern without subject or rule", tool: "Plain", args: `{}`, want: Failure("Tool 'Plain' is not allowed to make this call.")},
		{name: "existing tool not listed", tool: "Write", args: `{"file_path":"/tmp/a"}`, want: Failure("Tool 'Write' is not allowed.")},
		// A name no tool has is unknown, with a suggestion from the tools
		// the list allows only (issue 32: it was "not allowed", which
		// told the model nothing it could act on).
		{name: "missing tool not listed", tool: "Nope", args: `{}`, want: Failure("Unknown tool 'Nope'.")},
		{name: "typo of an allowed tool", tool: "Raed", args: `{"file_path":"/tmp/a.txt"}`, want: Failure("Unknown tool 'Raed'. Did you mean 'Read'?")},
		{name: "typo of a tool not allowed", tool: "Wirte", args: `{"file_path":"/tmp/a.txt"}`, want: Failure("Unknown tool 'Wirte'.")},
		{name: "case matters", tool: "read", args: `{"file_path":"/tmp/a.txt"}`, want: Failure("Unknown tool 'read'. Did you mean 'Read'?")},
		{name: "listed but not registered", tool: "Ghost", args: `{}`, want: Failure("Unknown tool 'Ghost'.")},
		// The arguments are wrong in every way the gate checks; a denied call
		// must not reveal the tool's schema.
		{name: "denied before schema", tool: "Read", args: `{"file_path":"/etc/x","bogus":1}`, want: Failure("Tool 'Read' is not allowed to access this path.")},
		{name: "schema after allow", tool: "Read", args: `{"file_path":"/tmp/x","bogus":1}`, want: Failure("Unknown parameter 'bogus'. The tool was not executed.")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := newTestExecutor(t, permTools(), WithAllowList(list), WithSchemaMode(schema.Enforce))
			tc := NewContext(WorkDirKey.Bind(tt.workDir))
			got := e.Execute(context.Background(), Call{Name: tt.tool, Input: input(t, tt.args)}, tc)
			if diff := cmp.Diff(tt.want, got, cmpResult); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if got.IsError && !strings.HasPrefix(got.Content, "Unknown tool '") && tt.name != "schema after allow" && !errors.Is(got.Err, ErrNotAllowed) {
				t.Errorf("Err = %v, want ErrNotAllowed", got.Err)
			}
		})
	}
}

func TestAllowListOffersDefinitions(t *testing.T) {
	list, err := permission.Parse("Read(/tmp/**)", "Bash(git:*)", "Ghost")
	if err != nil {
		t.Fatal(err)
	}
	e, logs := newTestExecutor(t, permTools(), WithAllowList(list))
	var names []string
	for _, d := range e.Definitions() {
		names = append(names, d.Name)
	}
	if diff := cmp.Diff([]string{"Read", "Bash"}, names); diff != "" {
		t.Errorf("offered (-want +got):\n%s", diff)
	}
	if !strings.Contains(logs.String(), "Ghost") {
		t.Errorf("a listed name no tool has must be logged; logs:\n%s", logs)
	}

	// A read-only ceiling leaves Bash out, and a call to it is not allowed.
	capped, _ := newTestExecutor(t, permTools(), WithAllowList(list.Capped(permission.ReadOnly)))
	names = nil
	for _, d := range capped.Definitions() {
		names = append(names, d.Name)
	}
	if diff := cmp.Diff([]string{"Read"}, names); diff != "" {
		t.Errorf("offered under a read-only ceiling (-want +got):\n%s", diff)
	}
	res := capped.Execute(context.Background(), Call{Name: "Bash", Input: input(t, `{"command":"git status"}`)}, Context{})
	if res.Content != "Tool 'Bash' is not allowed." {
		t.Errorf("Bash above the ceiling: %+v", res)
	}
}

func TestEmptyOfferWarns(t *testing.T) {
	list, err := permission.Parse("Nothing")
	if err != nil {
		t.Fatal(err)
	}
	e, logs := newTestExecutor(t, permTools(), WithAllowList(list))
	if d := e.Definitions(); len(d) != 0 {
		t.Errorf("offered %v", d)
	}
	if logs.maxLevel() != slog.LevelWarn {
		t.Errorf("an empty offer must be logged at WARN; logs:\n%s", logs)
	}
}

func TestOfferFilterReachesTools(t *testing.T) {
	list, err := permission.Parse("Probe", "Read")
	if err != nil {
		t.Fatal(err)
	}
	var offers func(string) bool
	probe := New(Definition{Name: "Probe", SideEffect: ReadOnly}, func(_ context.Context, _ Input, tc Context) Result {
		offers = tc.OfferFilter()
		return Success("")
	})
	tools := append(permTools(), probe)
	e, _ := newTestExecutor(t, tools, WithAllowList(list.Capped(permission.ReadOnly)))
	e.Execute(context.Background(), Call{Name: "Probe"}, Context{})
	if offers == nil {
		t.Fatal("no offer filter in the call's context")
	}
	got := map[string]bool{}
	for _, n := range []string{"Read", "Write", "Bash", "Probe", "Nope"} {
		got[n] = offers(n)
	}
	want := map[string]bool{"Read": true, "Write": false, "Bash": false, "Probe": true, "Nope": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("offers (-want +got):\n%s", diff)
	}

	// Without an allow-list there is no filter: everything is offered.
	offers = nil
	open, _ := newTestExecutor(t, tools)
	open.Execute(context.Background(), Call{Name: "Probe"}, Context{})
	if offers != nil {
		t.Error("a filter without an allow-list")
	}
}

func TestOfferWarningsLoggedOnce(t *testing.T) {
	list, err := permission.Parse("Read", "Ghost")
	if err != nil {
		t.Fatal(err)
	}
	e, logs := newTestExecutor(t, permTools(), WithAllowList(list))
	for range 5 {
		e.Definitions()
	}
	if n := strings.Count(logs.String(), "Ghost"); n != 1 {
		t.Errorf("the warning about Ghost was logged %d times, want once:\n%s", n, logs)
	}
}

func TestSubjectWithDefault(t *testing.T) {
	tests := []struct {
		args string
		want permission.Subject
		ok   bool
	}{
		{`{}`, permission.Subject{Kind: PathSubject, Value: "."}, true},
		{`{"path":null}`, permission.Subject{Kind: PathSubject, Value: "."}, true},
		{`{"path":"/x"}`, permission.Subject{Kind: PathSubject, Value: "/x"}, true},
		{`{"path":" "}`, permission.Subject{}, false},
		{`{"path":3}`, permission.Subject{}, false},
	}
	for _, tt := range tests {
		fromBytes := input(t, tt.args)
		fromMap := NewInput(fromBytes.Map())
		for name, in := range map[string]Input{"bytes": fromBytes, "map": fromMap} {
			got, ok := stringSubjectOr(in, "path", PathSubject, ".")
			if got != tt.want || ok != tt.ok {
				t.Errorf("%s %s: got %+v, %v; want %+v, %v", name, tt.args, got, ok, tt.want, tt.ok)
			}
		}
	}
}

// TestDenialRevealsNothing: a tool that exists and is not allowed is
// answered "not allowed", a name no tool has "Unknown tool", and a
// suggestion never names a tool the list does not offer.
func TestDenialRevealsNothing(t *testing.T) {
	long := strings.Repeat("x", schema.EchoLimit+20)
	tools := append(permTools(),
		New(Definition{Name: "DeleteAll", SideEffect: Destructive}, func(context.Context, Input, Context) Result { return Success("") }),
		New(Definition{Name: "it's"}, func(context.Context, Input, Context) Result { return Success("") }),
		New(Definition{Name: long}, func(context.Context, Input, Context) Result { return Success("") }))
	restricted, err := permission.Parse("Read")
	if err != nil {
		t.Fatal(err)
	}
	e, _ := newTestExecutor(t, tools, WithAllowList(restricted))
	cut := strings.Repeat("x", schema.EchoLimit) + "...'"
	for _, tt := range []struct{ name, want string }{
		{"it's", `Tool 'it\'s' is not allowed.`}, // registered
		{"its's", `Unknown tool 'its\'s'.`},      // absent, close to a tool not offered
		{"Raed", `Unknown tool 'Raed'. Did you mean 'Read'?`},
		{long, "Tool '" + cut + " is not allowed."}, // registered
		{long + "y", "Unknown tool '" + cut + "."},  // absent
	} {
		if got := e.Execute(context.Background(), Call{Name: tt.name}, Context{}).Content; got != tt.want {
			t.Errorf("%.20q: %q, want %q", tt.name, got, tt.want)
		}
	}
	capped, _ := newTestExecutor(t, tools, WithAllowList(permission.List{}.Capped(permission.ReadOnly)))
	present := capped.Execute(context.Background(), Call{Name: "DeleteAll"}, Context{})
	absent := capped.Execute(context.Background(), Call{Name: "Nope"}, Context{})
	typo := capped.Execute(context.Background(), Call{Name: "DeleteAl"}, Context{})
	near := capped.Execute(context.Background(), Call{Name: "Reda"}, Context{})
	if present.Content != "Tool 'DeleteAll' is not allowed." || absent.Content != "Unknown tool 'Nope'." {
		t.Errorf("under a ceiling: present %q, absent %q", present.Content, absent.Content)
	}
	if typo.Content != "Unknown tool 'DeleteAl'." {
		t.Errorf("a suggestion must not reveal a tool above the ceiling: %q", typo.Content)
	}
	if near.Content != "Unknown tool 'Reda'. Did you mean 'Read'?" {
		t.Errorf("a typo of a tool within the ceiling: %q", near.Content)
	}
}

func TestNestedCallDoesNotInheritCallID(t *testing.T) {
	var ids []string
	var e *Executor
	inner := New(Definition{Name: "Inner"}, func(_ context.Context, _ Input, tc Context) Result {
		ids = append(ids, tc.CallID())
		return Success("")
	})
	outer := New(Definition{Name: "Outer"}, func(ctx context.Context, _ Input, tc Context) Result {
		ids = append(ids, tc.CallID())
		e.Execute(ctx, Call{Name: "Inner"}, tc)
		e.Execute(ctx, Call{Name: "Inner", Metadata: map[string]string{metaCallID: "mine"}}, tc)
		return Success("")
	})
	e, _ = newTestExecutor(t, []Tool{inner, outer})
	e.Execute(context.Background(), Call{ID: "outer-1", Name: "Outer"}, Context{})
	if diff := cmp.Diff([]string{"outer-1", "", "mine"}, ids); diff != "" {
		t.Errorf("call ids (-want +got):\n%s", diff)
	}
}
