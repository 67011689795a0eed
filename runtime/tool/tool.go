package tool

import (
	"context"
	"fmt"
	"time"

	"github.com/toolgen/toolgen/runtime/permission"
)

// Definition is what the model is shown of a tool.
type Definition struct {
	// Name is the name the model calls the tool by.
	Name string
	// Description tells the model what the tool does and when to use it.
	Description string
	// InputSchema is the JSON schema of the tool's arguments, as a map
	// (type object, properties, required, ...). Nil means the tool takes
	// no declared arguments.
	InputSchema map[string]any
	// Keywords are search hints: words users say when they want the tool
	// that its description does not (synonyms, product names, other
	// languages), as a generated tool's //tool:keywords directive declares
	// them. Tool search indexes them as a field of their own; they are not
	// shown to the model.
	Keywords []string
	// Title is a short human-readable name for user interfaces (an MCP
	// host's tool list), as a generated tool's //tool:title directive
	// declares it. Models are shown Name and Description, not Title.
	Title string
	// OutputSchema is the JSON schema (type object) of the structured
	// content the tool's successful results carry in Result.Structured, as
	// toolgen emits it for a tool whose output type is a struct. Nil means
	// the tool declares no structured output.
	OutputSchema map[string]any
	// Hints say what a call does to the world, for hosts that show or
	// gate tools by it (MCP's tool annotations). They are derived from
	// SideEffect, Idempotent and OpenWorld (see Hints): leave them nil,
	// and Executor.Definitions fills them in. Hints that say something
	// else than those behaviours are a registration error.
	Hints *Hints

	// The behaviours below tell the runtime how it may run and judge the
	// tool; the zero value of each is its default. Generated tools set
	// them from their directives; hand-written tools set them here.

	// Concurrency says whether the tool may run beside other tools of a
	// batch (Sequential by default).
	Concurrency Concurrency
	// Interrupt says how the tool reacts when its call is cancelled
	// (Cooperative by default).
	Interrupt Interrupt
	// SideEffect is the level of change the tool can make; zero means
	// Mutating.
	SideEffect SideEffect
	// OpenWorld says the tool reaches beyond a closed domain (the network,
	// any program a shell can run); see Hints.
	OpenWorld bool
	// Idempotent says that calling the tool again with the same arguments
	// has no further effect (setting a value, replacing a list, stopping
	// a process); a ReadOnly tool is idempotent whatever it says. See
	// Hints.
	Idempotent bool
	// Loading says whether a catalog offers the tool from the start or
	// once tool search finds it (Eager by default).
	Loading Loading
	// Subject names the input field the allow-list judges the call by; the
	// zero value declares none.
	Subject SubjectField
	// Rule, when set, judges allow-list patterns configured for the tool
	// itself (an "action:url" pattern): it reports whether the call
	// matches pattern. A panic counts as no match.
	Rule func(pattern string, in Input, tc Context) bool `json:"-"`
	// ChecksInput says that Execute checks every constraint of InputSchema
	// itself and reports violations in the gate's sentences, as the tools
	// toolgen generates do, so that the Executor does not run the schema
	// gate before it. Under schema.Enforce the executor then hands Execute
	// an Input that reads no numeric string ("10") as a number, as the gate
	// would refuse it; see Executor.
	ChecksInput bool
	// Timeout, when positive, bounds each call: the executor runs the tool
	// with a context that ends after Timeout and answers a call that ran
	// out of time as the Bash tool does ("[timed out after 30000ms]"), as
	// a generated tool's //tool:timeout directive declares it. Zero means
	// no bound of the tool's own (the caller's context still applies).
	Timeout time.Duration
}

// SubjectField names the top-level string field of a tool's input that the
// allow-list judges a call by, and what kind of subject it holds.
type SubjectField struct {
	// Kind is CommandSubject or PathSubject; zero declares no subject.
	Kind SubjectKind
	// Key is the field's wire name.
	Key string
	// Default is the value the tool uses when the field is absent; empty
	// means an absent field cannot be judged.
	Default string
}

// Declared reports whether f names a subject.
func (f SubjectField) Declared() bool { return f.Kind != 0 && f.Key != "" }

// Read reads the field from in: a missing, mistyped or blank value cannot
// be judged (false), except that an absent field with a Default is judged
// as that default.
func (f SubjectField) Read(in Input) (permission.Subject, bool) {
	if !f.Declared() {
		return permission.Subject{}, false
	}
	if f.Default != "" {
		return stringSubjectOr(in, f.Key, f.Kind, f.Default)
	}
	return stringSubject(in, f.Key, f.Kind)
}

// Tool is a capability the model can call.
//
// Execute never panics and never returns a Go error: a failure is a Result
// with IsError set. Cancellation arrives through ctx.
//
// How the runtime may run and judge a tool (concurrency, interrupt, side
// effect, loading, permission subject and rule) is data: fields of its
// Definition.
type Tool interface {
	Definition() Definition
	Execute(ctx context.Context, in Input, tc Context) Result
}

// New returns a hand-written tool with a static definition: the path for
// tools of one to three parameters, or whose keys are known only at run
// time. Execute calls fn and turns a panic into an error result. The
// tool's behaviours are def's fields:
//
//	tool.New(tool.Definition{
//		Name: "Weather", Description: "Tells the weather in a city.",
//		InputSchema: schema,
//		Concurrency: tool.Safe, SideEffect: tool.ReadOnly,
//	}, weather)
func New(def Definition, fn func(context.Context, Input, Context) Result) Tool {
	return newFunc(func() Definition { return def }, def.Name, fn)
}

// NewDynamic is New for a definition computed each time it is asked for (an
// MCP server's tool whose schema may change, a description that lists the
// current state). The name is read once, when NewDynamic is called; a
// provider that later returns another name keeps the first.
func NewDynamic(def func() Definition, fn func(context.Context, Input, Context) Result) Tool {
	var name string
	if def != nil {
		d, err := safeDefinitionFunc(def)
		if err == nil {
			name = d.Name
		}
	}
	return newFunc(def, name, fn)
}

func newFunc(def func() Definition, name string, fn func(context.Context, Input, Context) Result) *funcTool {
	return &funcTool{def: def, name: name, fn: fn}
}

type funcTool struct {
	def  func() Definition
	name string
	fn   func(context.Context, Input, Context) Result
}

func (t *funcTool) Definition() Definition {
	if t.def == nil {
		return Definition{Name: t.name}
	}
	d := t.def()
	d.Name = t.name
	return d
}

func (t *funcTool) Execute(ctx context.Context, in Input, tc Context) (res Result) {
	defer Recover(t.name, &res)
	if t.fn == nil {
		return Failure(fmt.Sprintf("Tool '%s' has no implementation.", t.name))
	}
	return t.fn(ctx, in, tc)
}

// safeDefinition asks t for its definition, turning a panic in a definition
// provider into an error.
func safeDefinition(t Tool) (d Definition, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("definition of tool panicked: %v", p)
		}
	}()
	return t.Definition(), nil
}

func safeDefinitionFunc(f func() Definition) (d Definition, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("definition provider panicked: %v", p)
		}
	}()
	return f(), nil
}
