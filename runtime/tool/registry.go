package tool

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"unicode"

	"github.com/toolgen/toolgen/runtime/schema"
)

// ErrDuplicate is wrapped by the error Register returns for a name that is
// already registered.
var ErrDuplicate = errors.New("tool already registered")

// ToolSource is where the executor finds tools: a Registry, or a catalog's
// per-run view.
type ToolSource interface {
	// Find returns the tool registered under the normalised name.
	Find(name string) (Tool, bool)
	// All returns the tools to offer the model, in a stable order.
	All() []Tool
}

// functionsPrefix is the prefix some models put before a tool's name.
const functionsPrefix = "functions."

// NormalizeName returns the name a call's tool is looked up by: an optional
// leading "functions." (which some models add) is removed, once. Nothing
// else changes: names are case-sensitive and whitespace is significant.
func NormalizeName(name string) string {
	return strings.TrimPrefix(name, functionsPrefix)
}

// ValidateDefinition reports whether a tool with definition d can be
// registered: its name must be non-empty, free of whitespace and control
// characters, and not start with "functions."; hints of its own must agree
// with its declared behaviours (see Hints). Registry.Register and the
// catalog ask it.
func ValidateDefinition(d Definition) error {
	if err := validateName(d.Name); err != nil {
		return err
	}
	if err := checkHints(d); err != nil {
		return fmt.Errorf("tool %q: %w", d.Name, err)
	}
	return nil
}

// validateName reports whether name can be registered.
func validateName(name string) error {
	if name == "" {
		return errors.New("tool name is empty")
	}
	if strings.HasPrefix(name, functionsPrefix) {
		return fmt.Errorf("tool name %q must not start with %q", name, functionsPrefix)
	}
	for _, r := range name {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == unicode.ReplacementChar {
			return fmt.Errorf("tool name %q contains %q; use letters, digits, '_', '-' or '.'", name, r)
		}
	}
	return nil
}

// Registry holds tools by name, in registration order. It is safe for
// concurrent use.
type Registry struct {
	mu    sync.RWMutex
	tools map[string]Tool
	order []string
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{tools: make(map[string]Tool)} }

// Register adds t under its definition's name. A nil tool, a definition
// ValidateDefinition refuses (an invalid name, contradicting hints) or a
// name already registered is an error.
func (r *Registry) Register(t Tool) error {
	if t == nil {
		return errors.New("register: tool is nil")
	}
	def, err := safeDefinition(t)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	if err := ValidateDefinition(def); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	checkSchema(def)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tools == nil {
		r.tools = make(map[string]Tool)
	}
	if _, dup := r.tools[def.Name]; dup {
		return fmt.Errorf("register %q: %w", def.Name, ErrDuplicate)
	}
	r.tools[def.Name] = t
	r.order = append(r.order, def.Name)
	return nil
}

// checkSchema logs, at registration, a tool whose input schema does not
// compile or needs the complete validator where the program does not link
// it: under schema.Enforce every call to it will be refused, and the place
// to learn that is where it is registered, not at its first call. The tool
// is registered all the same (schema.Warn and schema.Off run it). A tool
// that checks its own input (Definition.ChecksInput: every generated tool)
// never meets the gate and is not checked. It reads the schema with
// schema.Check, which compiles no complete validation: that happens at the
// tool's first call.
func checkSchema(def Definition) {
	if def.InputSchema == nil || def.ChecksInput {
		return // no schema, or the tool checks its input itself: no gate
	}
	err := checkSafely(def.InputSchema)
	switch {
	case err == nil:
	case errors.Is(err, schema.ErrIncomplete):
		slog.Default().Warn("tool registered with an input schema that only the complete validator checks, which this program does not link; under schema enforce every call to it is refused",
			"tool", def.Name, "err", err)
	default:
		slog.Default().Warn("tool registered with an input schema that does not compile; under schema enforce every call to it is refused",
			"tool", def.Name, "err", err)
	}
}

func checkSafely(s map[string]any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("schema check panicked: %v", p)
		}
	}()
	return schema.Check(s)
}

// Unregister removes the tool registered under name (normalised) and reports
// whether there was one.
func (r *Registry) Unregister(name string) bool {
	name = NormalizeName(name)
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.tools[name]; !ok {
		return false
	}
	delete(r.tools, name)
	for i, n := range r.order {
		if n == name {
			r.order = append(r.order[:i:i], r.order[i+1:]...)
			break
		}
	}
	return true
}

// Find returns the tool registered under name, after NormalizeName.
func (r *Registry) Find(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.tools[NormalizeName(name)]
	return t, ok
}

// All returns every tool in registration order.
func (r *Registry) All() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Tool, len(r.order))
	for i, n := range r.order {
		out[i] = r.tools[n]
	}
	return out
}

// Names returns the registered names in registration order.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]string(nil), r.order...)
}

// Len returns the number of registered tools.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.order)
}
