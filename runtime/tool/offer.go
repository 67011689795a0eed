package tool

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime/permission"
)

// Offers reports whether the executor's allow-list offers the named tool:
// the name is on the list and, when the tool is known, its side effect is
// within the list's ceiling. Without an allow-list every tool is offered.
func (e *Executor) Offers(name string) bool {
	if !e.hasAllow {
		return true
	}
	name = NormalizeName(name)
	if !e.allow.Offers(name) {
		return false
	}
	t, ok := e.find(name)
	if !ok {
		return true
	}
	ceiling := e.allow.Ceiling()
	if ceiling == permission.Unknown {
		return true
	}
	d, _ := safeDefinition(t)
	return sideEffectOf(d) <= ceiling
}

// ErrNotAllowed is matched (errors.Is) by the Err of every result for a
// call the allow-list denied.
var ErrNotAllowed = errors.New("tool call not allowed")

// deniedError is the Err of a result for a call the allow-list denied.
// Detail says why, for logs only: it may name patterns and paths, so it is
// never shown to the model.
type deniedError struct {
	Tool   string
	Detail string
}

func (e *deniedError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("tool %q not allowed", e.Tool)
	}
	return fmt.Sprintf("tool %q not allowed: %s", e.Tool, e.Detail)
}

// Is makes errors.Is(err, ErrNotAllowed) true.
func (e *deniedError) Is(target error) bool { return target == ErrNotAllowed }

// Definitions returns the definitions to send to the model: every tool of
// the source the allow-list offers, in the source's order. A tool without a
// schema is given an empty object schema.
func (e *Executor) Definitions() []Definition {
	if e.src == nil {
		return nil
	}
	var (
		defs  []Definition
		descs []permission.Descriptor
	)
	all := e.src.All()
	var hints []Hints
	for _, t := range all {
		if t == nil {
			continue
		}
		d, err := safeDefinition(t)
		if err != nil {
			e.log().Error("tool definition failed", "err", err)
			continue
		}
		if d.InputSchema == nil {
			d.InputSchema = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		if d.Hints == nil {
			if hints == nil {
				hints = make([]Hints, 0, len(all)) // one allocation for every tool's
			}
			hints = append(hints, hintsOf(d))
			d.Hints = &hints[len(hints)-1]
		}
		defs = append(defs, d)
		descs = append(descs, permission.Descriptor{Name: d.Name, Level: sideEffectOf(d)})
	}
	if !e.hasAllow {
		return defs
	}
	offer := e.allow.Offered(descs)
	e.warnOffer(offer.Warnings)
	out := defs[:0]
	for _, d := range defs {
		if offer.Has(d.Name) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		e.warnOffer(append(offer.Warnings, "the allow-list leaves no tool offered to the model"))
	}
	return out
}

// warnOffer logs the allow-list's warnings about what is offered, once for
// each change: Definitions is re-read every turn of an agent loop.
func (e *Executor) warnOffer(warnings []string) {
	key := strings.Join(warnings, "\n")
	e.warnMu.Lock()
	changed := key != e.lastWarn
	e.lastWarn = key
	e.warnMu.Unlock()
	if !changed {
		return
	}
	for _, w := range warnings {
		e.log().Warn("allow-list: " + w)
	}
}

func notAllowed(name string) string {
	return permission.NotAllowed(name)
}

func (e *Executor) offeredNames() []string {
	if e.src == nil {
		return nil
	}
	var names []string
	for _, t := range e.src.All() {
		if t == nil {
			continue
		}
		if d, err := safeDefinition(t); err == nil && e.Offers(d.Name) {
			names = append(names, d.Name)
		}
	}
	return names
}

// checkPermission applies the allow-list and the caller's permission
// functions. It runs before the schema gate, so that a denied tool's schema
// errors cannot tell the model the tool exists.
func (e *Executor) checkPermission(ctx context.Context, t Tool, def Definition, name string, call Call, tc Context) (Result, bool) {
	if e.hasAllow {
		req := permission.Request{
			Tool:    name,
			WorkDir: tc.WorkDir(),
			Level:   sideEffectOf(def),
		}
		if e.allow.ReadsCall(name) {
			if def.Subject.Declared() {
				subj, ok := def.Subject.Read(call.Input)
				req.HasSubject, req.Judged = true, ok
				if ok {
					req.Subject = &subj
				}
			}
			req.Rule = ruleOf(def, call.Input, tc)
		}
		if d := e.allow.Decide(req); !d.Allowed {
			return FailureWith(d.Reason, &deniedError{Tool: name, Detail: d.Detail}), true
		}
	}
	for _, f := range e.permFuncs {
		if err := callPermFunc(f, ctx, t, call, tc); err != nil {
			return FailureWith(err.Error(), err), true
		}
	}
	return Result{}, false
}
