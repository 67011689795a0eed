package builtin

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"weak"

	"github.com/toolgen/toolgen/runtime/tool"
)

// TodoWriteInput is the input of the TodoWrite tool.
//
//tool:name TodoWrite
//tool:unexported
//tool:title Update todo list
//tool:keywords todo list, tasks, plan, checklist, track progress, steps
//tool:description Creates and updates the task list of this conversation, to plan multi-step work and show progress. Each call replaces the whole list.
//tool:description Give every todo its content (imperative, e.g. "Run the tests"), its activeForm (present continuous, e.g. "Running the tests") and its status: pending, in_progress or completed.
//tool:description Keep exactly one todo in_progress while working, and mark each completed as soon as it is done.
//tool:concurrency sequential
//tool:side-effect mutating
//tool:idempotent
type TodoWriteInput struct {
	// The updated todo list.
	Todos []Todo `json:"todos" tool:"required"`
}

// Todo is one entry of the task list.
type Todo struct {
	// What to do, in the imperative.
	Content string `json:"content" tool:"required"`
	// pending, in_progress or completed.
	Status string `json:"status" tool:"required,enum=pending|in_progress|completed"`
	// What is being done, in the present continuous, shown while in progress.
	ActiveForm string `json:"activeForm" tool:"required"`
}

// The todo statuses.
const (
	TodoPending    = "pending"
	TodoInProgress = "in_progress"
	TodoCompleted  = "completed"
)

// maxTodos bounds the length of the list.
const maxTodos = 100

// TodoStore holds one run's todo list. It is safe for concurrent use.
type TodoStore struct {
	mu    sync.Mutex
	todos []Todo
}

// NewTodoStore returns an empty store.
func NewTodoStore() *TodoStore { return &TodoStore{} }

// List returns a copy of the list.
func (s *TodoStore) List() []Todo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Todo(nil), s.todos...)
}

func (s *TodoStore) set(todos []Todo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.todos = append([]Todo(nil), todos...)
}

// TodosKey holds the run's todo list. Bind a fresh store to each run's
// context (tool.NewContext(builtin.TodosKey.Bind(builtin.NewTodoStore())))
// to read the list afterwards. Without one, TodoWrite keeps the list per
// run by itself, keyed by the run's read-files set, and drops it when the
// run's context is gone.
var TodosKey = tool.NewKey[*TodoStore]("todos")

// todos is the TodoWrite tool's state: the lists of runs whose context has
// no store of its own.
type todos struct {
	mu   sync.Mutex
	runs map[weak.Pointer[tool.ReadFiles]]*TodoStore
}

// store returns the run's list: the one bound to TodosKey, else the one kept
// for the run's read-files set, else nil.
func (t *todos) store(tc tool.Context) *TodoStore {
	if s, ok := TodosKey.Get(tc); ok && s != nil {
		return s
	}
	rf := tc.ReadFiles()
	if rf == nil {
		return nil
	}
	wp := weak.Make(rf)
	t.mu.Lock()
	defer t.mu.Unlock()
	if s, ok := t.runs[wp]; ok {
		return s
	}
	if t.runs == nil {
		t.runs = make(map[weak.Pointer[tool.ReadFiles]]*TodoStore)
	}
	s := NewTodoStore()
	t.runs[wp] = s
	runtime.AddCleanup(rf, func(wp weak.Pointer[tool.ReadFiles]) {
		t.mu.Lock()
		delete(t.runs, wp)
		t.mu.Unlock()
	}, wp)
	return s
}

// write is the TodoWrite tool.
func (t *todos) write(ctx context.Context, in TodoWriteInput, tc tool.Context) (string, error) {
	if len(in.Todos) > maxTodos {
		return "", fail("The list has %d todos; the limit is %d. Merge or drop some.", len(in.Todos), maxTodos)
	}
	var pending, active, done int
	var current []string
	for i, td := range in.Todos {
		if strings.TrimSpace(td.Content) == "" {
			return "", fail("Todo %d has empty content. Say what is to be done.", i+1)
		}
		if strings.TrimSpace(td.ActiveForm) == "" {
			return "", fail("Todo %d has an empty activeForm. Say what is being done, e.g. \"Running the tests\".", i+1)
		}
		switch td.Status {
		case TodoPending:
			pending++
		case TodoInProgress:
			active++
			current = append(current, strings.TrimRight(strings.TrimSpace(td.ActiveForm), "."))
		case TodoCompleted:
			done++
		default:
			return "", fail("Todo %d has status '%s'; use pending, in_progress or completed.", i+1, td.Status)
		}
	}
	s := t.store(tc)
	if s == nil {
		return "", fail("TodoWrite has no place to keep the list: the run's context has neither a todo store nor a read-files set.")
	}
	s.set(in.Todos)
	if len(in.Todos) == 0 {
		return "The todo list is now empty.", nil
	}
	var b strings.Builder
	b.WriteString("Todo list updated: ")
	b.WriteString(plural(len(in.Todos), "todo"))
	b.WriteString(" (" + strconv.Itoa(done) + " completed, " + strconv.Itoa(active) + " in progress, " + strconv.Itoa(pending) + " pending).")
	if len(current) > 0 {
		b.WriteString(" Now: " + strings.Join(current, "; ") + ".")
	}
	if active > 1 {
		b.WriteString(" Keep only one todo in progress at a time.")
	}
	if done == len(in.Todos) {
		b.WriteString(" All done.")
	}
	return b.String(), nil
}
