package tool

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/permission"
)

// The executor hands each call the filter of its own tool's PATH patterns:
// restricting for a tool with patterns, the zero filter for one without,
// never another tool's (an outer call's filter does not leak into a call
// made with its context), and the caller's own when there is no allow-list.
func TestPathFilterGiven(t *testing.T) {
	// probe reports, for its call, whether the filter it got restricts and
	// what it says of two paths.
	probe := func(name string) Tool {
		return New(Definition{Name: name, Subject: SubjectField{Kind: PathSubject, Key: "path"}}, func(_ context.Context, _ Input, tc Context) Result {
			f := tc.PathFilter()
			_, bound := pathFilterKey.Get(tc)
			return Success(fmt.Sprintf("restricts=%v bound=%v docs=%v private=%v", f.Restricts(), bound,
				f.Allows("/ws/docs/a"), f.MayContain("/ws/docs/private")))
		})
	}
	reg := NewRegistry()
	for _, n := range []string{"Grep", "Glob"} {
		if err := reg.Register(probe(n)); err != nil {
			t.Fatal(err)
		}
	}
	list, err := permission.Parse("Grep(/ws/docs/*)", "Glob")
	if err != nil {
		t.Fatal(err)
	}
	other, err := permission.Parse("Grep(/elsewhere/**)")
	if err != nil {
		t.Fatal(err)
	}
	in := NewInput(map[string]any{"path": "/ws/docs/private"})
	tests := []struct {
		name string
		exec *Executor
		tool string
		tc   Context
		want string
	}{
		{name: "patterns", exec: NewExecutor(reg, WithAllowList(list)), tool: "Grep",
			want: "restricts=true bound=true docs=true private=false"},
		{name: "no patterns", exec: NewExecutor(reg, WithAllowList(list)), tool: "Glob",
			want: "restricts=false bound=false docs=true private=true"},
		{name: "an outer call's filter is replaced", exec: NewExecutor(reg, WithAllowList(list)), tool: "Glob",
			tc:   NewContext(pathFilterKey.Bind(other.PathFilter("Grep"))),
			want: "restricts=false bound=false docs=true private=true"},
		{name: "no allow-list keeps the caller's", exec: NewExecutor(reg), tool: "Glob",
			tc:   NewContext(pathFilterKey.Bind(list.PathFilter("Grep"))),
			want: "restricts=true bound=true docs=true private=false"},
		{name: "no allow-list, no filter", exec: NewExecutor(reg), tool: "Grep",
			want: "restricts=false bound=false docs=true private=true"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.exec.Execute(context.Background(), Call{Name: tt.tool, Input: in}, tt.tc)
			if diff := cmp.Diff(tt.want, res.Content); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
