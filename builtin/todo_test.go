package builtin

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/toolgen/toolgen/runtime/tool"
)

func TestTodoWrite(t *testing.T) {
	todo := func(content, status, active string) Todo {
		return Todo{Content: content, Status: status, ActiveForm: active}
	}
	tests := []struct {
		name    string
		todos   []Todo
		want    string
		wantErr bool
	}{
		{name: "mixed", todos: []Todo{
			todo("Write the parser", "completed", "Writing the parser"),
			todo("Run the tests", "in_progress", "Running the tests"),
			todo("Update the docs", "pending", "Updating the docs"),
		}, want: "Todo list updated: 3 todos (1 completed, 1 in progress, 1 pending). Now: Running the tests."},
		{name: "one", todos: []Todo{todo("Plan", "pending", "Planning")},
			want: "Todo list updated: 1 todo (0 completed, 0 in progress, 1 pending)."},
		{name: "all done", todos: []Todo{todo("Plan", "completed", "Planning"), todo("Ship", "completed", "Shipping")},
			want: "Todo list updated: 2 todos (2 completed, 0 in progress, 0 pending). All done."},
		{name: "two in progress", todos: []Todo{todo("A", "in_progress", "Doing A."), todo("B", "in_progress", "Doing B")},
			want: "Todo list updated: 2 todos (0 completed, 2 in progress, 0 pending). Now: Doing A; Doing B. Keep only one todo in progress at a time."},
		{name: "empty list", todos: []Todo{}, want: "The todo list is now empty."},
		{name: "bad status", todos: []Todo{todo("A", "done", "Doing A")},
			want: "Todo 1 has status 'done'; use pending, in_progress or completed.", wantErr: true},
		{name: "empty content", todos: []Todo{todo("A", "pending", "Doing A"), todo(" ", "pending", "Doing")},
			want: "Todo 2 has empty content. Say what is to be done.", wantErr: true},
		{name: "empty active form", todos: []Todo{todo("A", "pending", "")},
			want: "Todo 1 has an empty activeForm. Say what is being done, e.g. \"Running the tests\".", wantErr: true},
		{name: "too many", todos: make([]Todo, 101), want: "The list has 101 todos; the limit is 100. Merge or drop some.", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := NewTodoStore()
			tc := tool.NewContext(TodosKey.Bind(store))
			got, err := (&todos{}).write(context.Background(), TodoWriteInput{Todos: tt.todos}, tc)
			check(t, got, err, tt.want, tt.wantErr)
			if !tt.wantErr && len(store.List()) != len(tt.todos) {
				t.Errorf("store holds %d todos, want %d", len(store.List()), len(tt.todos))
			}
		})
	}
}

func TestTodoWritePerRun(t *testing.T) {
	td := &todos{}
	runA, runB := tool.NewContext(), tool.NewContext()
	write := func(tc tool.Context, content string) {
		t.Helper()
		if _, err := td.write(context.Background(), TodoWriteInput{Todos: []Todo{{Content: content, Status: "pending", ActiveForm: content}}}, tc); err != nil {
			t.Fatal(err)
		}
	}
	write(runA, "a")
	write(runB, "b")
	if got := td.store(runA).List(); len(got) != 1 || got[0].Content != "a" {
		t.Errorf("run A's list = %v", got)
	}
	if got := td.store(runB).List(); len(got) != 1 || got[0].Content != "b" {
		t.Errorf("run B's list = %v", got)
	}
	// A context derived from a run's (per call) shares its list.
	if got := td.store(runA.With(tool.WorkDirKey.Bind("/x"))).List(); len(got) != 1 || got[0].Content != "a" {
		t.Errorf("derived context's list = %v", got)
	}

	// A run whose context is gone leaves nothing behind.
	func() {
		tc := tool.NewContext()
		write(tc, "gone")
	}()
	deadline := time.Now().Add(waitBound(t))
	for {
		runtime.GC()
		td.mu.Lock()
		n := len(td.runs)
		td.mu.Unlock()
		if n <= 2 || time.Now().After(deadline) {
			if n > 2 {
				t.Errorf("%d runs kept, want 2", n)
			}
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(runA)
	runtime.KeepAlive(runB)

	// A context with neither a store nor a read-files set.
	_, err := td.write(context.Background(), TodoWriteInput{}, tool.Context{})
	if err == nil || !strings.Contains(err.Error(), "no place to keep the list") {
		t.Errorf("err = %v", err)
	}
}
