package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTable(t *testing.T) {
	in := `goos: linux
BenchmarkBind/Grep/valid/handwritten-2    	 1000	       800 ns/op	     184 B/op	       2 allocs/op
BenchmarkBind/Grep/valid/toolgen-2        	 1000	      1000 ns/op	     192 B/op	       1 allocs/op
BenchmarkBind/Grep/valid/toolgen-2        	 1000	      9000 ns/op	     192 B/op	       1 allocs/op
BenchmarkBind/Grep/valid/toolgen-2        	 1000	      1100 ns/op	     192 B/op	       1 allocs/op
BenchmarkBind/Grep/valid/encoding-json-2  	 1000	      4400 ns/op	     400 B/op	      11 allocs/op
BenchmarkBind/Grep/valid/encoding-json-2  	 1000	      4600 ns/op	     400 B/op	      11 allocs/op
BenchmarkExecute/Grep/valid/direct-2      	 1000	      2000 ns/op	     224 B/op	       4 allocs/op
BenchmarkExecute/Grep/valid/executor-2    	 1000	      2500 ns/op	     232 B/op	       5 allocs/op
PASS
`
	rows, failed, err := parse(strings.NewReader(in))
	if err != nil || failed != "" {
		t.Fatalf("parse: %v %q", err, failed)
	}
	var b strings.Builder
	write(&b, fastest(rows))
	want := `| benchmark | ns/op | B/op | allocs/op | × toolgen |
|---|---:|---:|---:|---:|
| Bind/Grep/valid/handwritten | 800 | 184 | 2 | 0.8 |
| Bind/Grep/valid/toolgen | 1000 | 192 | 1 | 1.0 |
| Bind/Grep/valid/encoding-json | 4400 | 400 | 11 | 4.4 |
| Execute/Grep/valid/direct | 2000 | 224 | 4 |  |
| Execute/Grep/valid/executor | 2500 | 232 | 5 |  |

Bind/Grep/valid: toolgen takes 1.25× the time of handwritten

Execute/Grep/valid: executor adds 500 ns, 8 B and 1 allocs per call to direct
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
}

func TestFailuresAreKept(t *testing.T) {
	_, failed, _ := parse(strings.NewReader("--- FAIL: BenchmarkX\n    bench_test.go:10: boom\nFAIL\n"))
	if !strings.Contains(failed, "boom") {
		t.Errorf("failed = %q", failed)
	}
}
