package tool

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func echoTool(name string) Tool {
	return New(Definition{Name: name}, func(context.Context, Input, Context) Result { return Success(name) })
}

func TestRegistry(t *testing.T) {
	r := NewRegistry()
	for _, n := range []string{"Read", "Write", "Bash"} {
		if err := r.Register(echoTool(n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Register(echoTool("Read")); !errors.Is(err, ErrDuplicate) {
		t.Errorf("duplicate: err = %v, want ErrDuplicate", err)
	}
	if diff := cmp.Diff([]string{"Read", "Write", "Bash"}, r.Names()); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	for _, name := range []string{"Read", "functions.Read"} {
		if _, ok := r.Find(name); !ok {
			t.Errorf("Find(%q) found nothing", name)
		}
	}
	for _, name := range []string{"functions.functions.Read", "read", " Read", "Read "} {
		if _, ok := r.Find(name); ok {
			t.Errorf("Find(%q) found a tool; names are normalised once and are case- and space-sensitive", name)
		}
	}
	if !r.Unregister("functions.Write") || r.Unregister("Write") {
		t.Error("Unregister did not remove exactly once")
	}
	var names []string
	for _, tl := range r.All() {
		names = append(names, tl.Definition().Name)
	}
	if diff := cmp.Diff([]string{"Read", "Bash"}, names); diff != "" {
		t.Errorf("All after Unregister (-want +got):\n%s", diff)
	}
}

func TestRegisterBadTools(t *testing.T) {
	panicky := NewDynamic(func() Definition { panic("boom") }, nil)
	tests := []struct {
		name string
		tool Tool
		want string
	}{
		{"nil", nil, "register: tool is nil"},
		{"empty name", echoTool(""), "register: tool name is empty"},
		{"space", echoTool("my tool"), `contains ' '`},
		{"newline", echoTool("a\nb"), `contains '\n'`},
		{"functions prefix", echoTool("functions.X"), `must not start with "functions."`},
		{"panicking definition", panicky, "register: definition of tool panicked: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := NewRegistry().Register(tt.tool)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Register error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestZeroRegistryIsUsable(t *testing.T) {
	var r Registry
	if err := r.Register(echoTool("A")); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Find("A"); !ok || r.Len() != 1 {
		t.Error("zero Registry lost the tool")
	}
}

func TestNewDynamicDefinitionEachTime(t *testing.T) {
	n := 0
	tl := NewDynamic(func() Definition {
		n++
		return Definition{Name: "Clock", Description: strings.Repeat("x", n)}
	}, nil)
	first := tl.Definition().Description
	second := tl.Definition().Description
	if first == second {
		t.Errorf("the definition was not recomputed: %q then %q", first, second)
	}
	if res := tl.Execute(context.Background(), Input{}, Context{}); !res.IsError || res.Content != "Tool 'Clock' has no implementation." {
		t.Errorf("nil fn result = %+v", res)
	}
}
