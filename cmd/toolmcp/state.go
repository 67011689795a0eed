package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/store"
	"github.com/toolgen/toolgen/runtime/tool"
)

// The fields a run keeps in the store (see runtime/store): the todo list
// as JSON, one field per file read (its version stamp), one per tool
// ToolSearch activated, one per background command (the replica running
// it).
const (
	fieldTodos  = "todos"
	prefixRead  = "read:"
	prefixTool  = "tool:"
	prefixBgCmd = "bg:"
)

// runState keeps one run's builtin state in the store: loaded before each
// call (and before tools/list), so that a call sees what the calls served
// by other replicas did, and what the call changed saved after it.
type runState struct {
	st      store.Store
	key     string
	replica string // "" when the store is not shared
	logger  *slog.Logger

	exec  *tool.Executor
	todos *builtin.TodoStore
	read  *tool.ReadFiles
	view  *catalog.View
	bg    *builtin.BackgroundManager
}

// snapshot is what the run holds of the state a call may change.
type snapshot struct {
	todos  string
	read   map[string]string
	active []string
	bg     []string
}

func (r *runState) snap() snapshot {
	s := snapshot{read: make(map[string]string), active: r.view.Activated(), bg: r.bg.IDs()}
	if b, err := json.Marshal(r.todos.List()); err == nil {
		s.todos = string(b)
	}
	for _, p := range r.read.Paths() {
		v, _ := r.read.Version(p)
		s.read[p] = v
	}
	return s
}

// load brings the run up to date with the store. An error is logged and
// the run goes on with what it holds.
func (r *runState) load(ctx context.Context) {
	fields, err := r.st.Load(ctx, r.key)
	if err != nil {
		r.logger.Error("loading the session's state from the store", "err", err)
		return
	}
	var activate []string
	stored := make(map[string]bool)
	for k, v := range fields {
		switch {
		case k == fieldTodos:
			var todos []builtin.Todo
			if json.Unmarshal([]byte(v), &todos) == nil {
				r.todos.Replace(todos)
			}
		case strings.HasPrefix(k, prefixRead):
			p := k[len(prefixRead):]
			stored[p] = true
			if cur, ok := r.read.Version(p); !ok || cur != v {
				r.read.Mark(p, v)
			}
		case strings.HasPrefix(k, prefixTool):
			if name := k[len(prefixTool):]; !r.view.IsActive(name) {
				activate = append(activate, name)
			}
		}
	}
	// A file another replica's write made stale (Forget) is gone from the
	// store: forget it here too.
	for _, p := range r.read.Paths() {
		if !stored[p] {
			r.read.Forget(p)
		}
	}
	if len(activate) > 0 {
		r.view.Activate(activate...)
	}
}

// save writes what changed since before.
func (r *runState) save(ctx context.Context, before snapshot) {
	after := r.snap()
	set := make(map[string]string)
	var del []string
	if after.todos != before.todos {
		set[fieldTodos] = after.todos
	}
	for p, v := range after.read {
		if bv, ok := before.read[p]; !ok || bv != v {
			set[prefixRead+p] = v
		}
	}
	for p := range before.read {
		if _, ok := after.read[p]; !ok {
			del = append(del, prefixRead+p)
		}
	}
	for _, name := range after.active {
		if !slices.Contains(before.active, name) {
			set[prefixTool+name] = "1"
		}
	}
	for _, id := range after.bg {
		if !slices.Contains(before.bg, id) {
			set[prefixBgCmd+id] = r.replica
		}
	}
	// Every call restarts the conversation's time-to-live, changed or not.
	if err := r.st.Update(ctx, r.key, set, del); err != nil {
		r.logger.Error("saving the session's state to the store", "err", err)
	}
}

// call runs one call between a load and a save. A call naming a
// background command another replica runs is answered with where it runs.
func (r *runState) call(ctx context.Context, call tool.Call, tc tool.Context) tool.Result {
	if msg, elsewhere := r.elsewhere(call); elsewhere {
		return tool.Failure(msg)
	}
	r.load(ctx)
	before := r.snap()
	res := r.exec.Execute(ctx, call, tc)
	r.save(context.WithoutCancel(ctx), before)
	return res
}

// elsewhere reports whether call names a background command that another
// replica runs, and the sentence saying so.
func (r *runState) elsewhere(call tool.Call) (string, bool) {
	if r.replica == "" {
		return "", false
	}
	var param string
	switch call.Name {
	case builtin.BashOutputName:
		param = "bash_id"
	case builtin.KillShellName:
		param = "shell_id"
	default:
		return "", false
	}
	v, _ := call.Input.Get(param)
	id, _ := v.(string)
	owner, _, ok := strings.Cut(id, ":")
	if !ok || owner == r.replica {
		return "", false
	}
	return fmt.Sprintf("Background command '%s' runs on replica '%s', and this call reached replica '%s': a background command stays on the replica that started it. "+
		"Send the call again so that it reaches '%s' (the load balancer routes on the replica named before the colon in %s); if that replica has stopped, the command stopped with it: run it again.",
		schema.Echo(id), schema.Echo(owner), r.replica, schema.Echo(owner), param), true
}
