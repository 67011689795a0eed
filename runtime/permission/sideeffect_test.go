package permission

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSideEffect(t *testing.T) {
	type row struct {
		String string
		Valid  bool
		// Within lists, for the ceilings Unknown, ReadOnly, Mutating and
		// Destructive, whether a tool of this level is within each.
		Within [4]bool
	}
	tests := map[SideEffect]row{
		Unknown:       {"unknown", false, [4]bool{true, false, false, false}},
		ReadOnly:      {"read-only", true, [4]bool{true, true, true, true}},
		Mutating:      {"mutating", true, [4]bool{true, false, true, true}},
		Destructive:   {"destructive", true, [4]bool{true, false, false, true}},
		SideEffect(7): {"SideEffect(7)", false, [4]bool{true, false, false, false}},
	}
	for s, want := range tests {
		got := row{String: s.String(), Valid: s.Valid()}
		for i, c := range []SideEffect{Unknown, ReadOnly, Mutating, Destructive} {
			got.Within[i] = s.within(c)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d: (-want +got)\n%s", int(s), diff)
		}
	}
}
