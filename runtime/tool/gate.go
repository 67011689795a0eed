package tool

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/toolgen/toolgen/runtime/schema"
)

type gateEntry struct {
	schema uintptr
	v      *schema.Validator
	err    error
}

// gate applies the schema gate to a call per the executor's mode (Warn or
// Enforce); blocked is true when the call must not run. defErr is why the
// tool's definition could not be read, if it could not.
func (e *Executor) gate(def Definition, defErr error, name string, in Input, log callLog) (Result, bool) {
	if err := defErr; err != nil {
		log.Error("tool definition failed", "err", err)
		return FailureWith(fmt.Sprintf("Tool '%s' is not available: its definition failed.", name), err), true
	}
	v, fresh, err := e.validator(name, def.InputSchema)
	if err != nil {
		// A schema that does not compile checks nothing: under Enforce
		// that is an error, not a pass.
		if e.mode == schema.Enforce {
			log.Error("schema gate refused the call: the tool's schema does not compile", "err", err)
			return FailureWith(schemaErrorMessage(name, err), err), true
		}
		log.Warn("schema gate skipped: the tool's schema does not compile; running the tool anyway (mode warn)", "err", err)
		return Result{}, false
	}
	if v == nil {
		return Result{}, false
	}
	if err := v.Incomplete(); err != nil {
		if e.mode == schema.Enforce {
			log.Error("schema gate refused the call: the tool's schema needs the complete validator, which is not linked", "err", err)
			return FailureWith(incompleteMessage(name, err), err), true
		}
		if fresh {
			log.Warn("schema gate checks only part of the tool's schema: it needs the complete validator, which is not linked; running the tool anyway (mode warn)", "err", err)
		}
	}
	vs := v.Validate(in.gateArgs())
	if len(vs) == 0 {
		return Result{}, false
	}
	if e.mode == schema.Enforce {
		log.Warn("schema gate rejected the call", "violations", len(vs), "err", vs)
		return FailureWith(vs.Error(), vs), true
	}
	log.Warn("schema gate found violations; running the tool anyway (mode warn)", "violations", len(vs), "err", vs)
	return Result{}, false
}

// schemaErrorMessage is the result text of a call refused under
// schema.Enforce because the tool's input schema does not compile (err, as
// schema.Compile returns it):
//
//	Tool 'X' cannot be called: its input schema is broken (the schema is not a valid JSON schema: at /properties/a/type: ...). This is a fault of the tool, not of the call. The tool was not executed.
func schemaErrorMessage(name string, err error) string {
	return fmt.Sprintf("Tool '%s' cannot be called: its input schema is broken (%s). This is a fault of the tool, not of the call. The tool was not executed.",
		name, strings.TrimPrefix(err.Error(), "schema: "))
}

// incompleteMessage is the result text of a call refused under
// schema.Enforce because the tool's input schema needs the complete
// validator and the program does not link it (err, as
// schema.Validator.Incomplete returns it):
//
//	Tool 'X' cannot be called: its input schema needs the complete JSON Schema validator, which this program does not link (the schema uses "anyOf" at /properties/x; import _ "github.com/toolgen/toolgen/runtime/schema/full" to link it). This is a fault of the tool's setup, not of the call. The tool was not executed.
func incompleteMessage(name string, err error) string {
	_, detail, _ := strings.Cut(err.Error(), schema.ErrIncomplete.Error()+": ")
	return fmt.Sprintf("Tool '%s' cannot be called: its input schema needs the complete JSON Schema validator, which this program does not link (%s). This is a fault of the tool's setup, not of the call. The tool was not executed.",
		name, detail)
}

// validator returns the compiled gate for a tool's schema, compiled at the
// tool's first call and cached while the tool returns the same schema map;
// fresh is true for the call that compiled it.
func (e *Executor) validator(name string, s map[string]any) (v *schema.Validator, fresh bool, err error) {
	if s == nil {
		return nil, false, nil
	}
	id := reflect.ValueOf(s).Pointer()
	if c, ok := e.gates.Load(name); ok {
		if g := c.(*gateEntry); g.schema == id {
			return g.v, false, g.err
		}
	}
	v, err = compileSafely(s)
	e.gates.Store(name, &gateEntry{schema: id, v: v, err: err})
	return v, true, err
}

func compileSafely(s map[string]any) (v *schema.Validator, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("schema compile panicked: %v", p)
		}
	}()
	return schema.Compile(s)
}
