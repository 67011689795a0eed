package toolimpl

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/tool"
)

// FuzzBind binds any arguments with every helper: it never panics, and an
// Input made from the decoded map binds as the bytes do.
func FuzzBind(f *testing.F) {
	for _, s := range []string{
		`{"name":"ab"}`,
		`{"name":"abc","mode":"slow","count":3,"size":65535,"ratio":0.5,"clamp":-99,"flag":true,"tags":["x"],"env":{"a":1},"pos":[1,2],"when":"2026-12-01T10:00:00Z","wait":"1s","inner":{"id":"123e4567-e89b-12d3-a456-426614174000","items":[{"n":1}]},"raw":[1],"any":{}}`,
		`{"zz":1,"name":"A","mode":"m","count":0,"size":-1,"ratio":2,"flag":"y","tags":[1],"env":{"b":"x"},"pos":[1],"when":"t","wait":"s","inner":{"id":"x","q":1,"items":[{},{"n":-1}]}}`,
		`{"name":"ab","count":"12","size":"1e3","inner":{"items":[{"n":1e400}]}}`,
		`{"name":"\u00e9\ud83d\ude00","env":{"\u0000":1,"":2}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := tool.DecodeInput(data)
		if err != nil {
			return
		}
		got, err := bindSample(in)
		got2, err2 := bindSample(tool.NewInput(in.Map()))
		if diff := cmp.Diff(messages(err), messages(err2)); diff != "" {
			t.Fatalf("violations (-bytes +map):\n%s", diff)
		}
		if diff := cmp.Diff(got, got2); diff != "" {
			t.Fatalf("value (-bytes +map):\n%s", diff)
		}
	})
}

// FuzzStringRule: a string passes its length rule iff its rune count is in range.
func FuzzStringRule(f *testing.F) {
	f.Add("abc", 1, 3)
	f.Add("é", 2, 0)
	f.Fuzz(func(t *testing.T, s string, lo, hi int) {
		r := &StringRule{MinLen: &lo, MaxLen: &hi}
		in := tool.NewInput(map[string]any{"s": s})
		b := NewBinder(in)
		b.Locate([]string{"s"})
		got := String[string](&b, b.Field(0), "s", r)
		_, err := Done(&b, got)
		n := len([]rune(s))
		ok := n >= lo && n <= hi
		if (err == nil) != ok {
			t.Fatalf("%q in [%d, %d]: err %v", s, lo, hi, err)
		}
	})
}
