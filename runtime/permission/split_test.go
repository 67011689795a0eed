package permission

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitEntries(t *testing.T) {
	got := SplitEntries(" Read ,Bash(echo (a, b)), Read(/x/{a,b}/**) , Grep")
	want := []string{"Read", "Bash(echo (a, b))", "Read(/x/{a,b}/**)", "Grep"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if SplitEntries("  ") != nil {
		t.Error("blank must give no entries")
	}
}
