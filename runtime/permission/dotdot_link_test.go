package permission

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDotDotAfterLink: a ".." after a link must not let the check follow a
// different path than the one the tool opens. With pub/a -> pub/sub/deeper
// and pub/b -> ../secret, the cleaned pub/a/../b is pub/b, which leads out
// of the allowed tree; following the path as written lands on pub/sub/b,
// inside it. Both must be judged.
func TestDotDotAfterLink(t *testing.T) {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"pub/sub/deeper", "secret"} {
		if err := os.MkdirAll(filepath.Join(d, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(d, "secret", "key"), []byte("k"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(d, "pub/sub/deeper"), filepath.Join(d, "pub/a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../secret", filepath.Join(d, "pub/b")); err != nil {
		t.Fatal(err)
	}
	list, err := Parse("Read(" + d + "/pub/**)")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{d + "/pub/a/../b/key", d + "/pub/b/key"} {
		dec := list.Decide(Request{Tool: "Read", Subject: &Subject{Kind: Path, Value: p}, Judged: true, HasSubject: true})
		if dec.Allowed {
			t.Errorf("%s allowed; it leads to %s/secret/key", p, d)
		}
		if ok, _ := MatchPath(d+"/pub/**", p, ""); ok {
			t.Errorf("MatchPath(%s) matched", p)
		}
	}
	dec := list.Decide(Request{Tool: "Read", Subject: &Subject{Kind: Path, Value: d + "/pub/a/x"}, Judged: true, HasSubject: true})
	if !dec.Allowed {
		t.Errorf("a link inside the tree was denied: %s", dec.Detail)
	}
}
