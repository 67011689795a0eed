// Command benchtable reads `go test -bench -benchmem` output on standard
// input and prints one Markdown table: ns/op, B/op, allocs/op and, for
// each benchmark, its time as a multiple of the toolgen benchmark of the
// same group (the name up to its last slash); then, for a group of valid
// input with a "handwritten" run, toolgen's time as a multiple of it, and for a group
// with "direct" and "executor" runs, what the executor adds. Lines that are not
// benchmark results are dropped, except failures, which are printed and
// make it exit 1. A benchmark run several times (-count) is one row: the
// fastest of its times, the closest to its cost on a quiet machine (other
// load only ever adds time), and its first B/op and allocs/op.
//
//	go test -run=. -bench=. -benchmem -count=5 . | go run ./benchtable
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// A row is one benchmark result.
type row struct {
	name               string
	ns, bytes, allocs  float64
	group, pipeline    string
	hasBytes, hasAlloc bool
}

func main() {
	rows, failed, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	write(os.Stdout, fastest(rows))
	if failed != "" {
		fmt.Fprint(os.Stderr, failed)
		os.Exit(1)
	}
}

func parse(r io.Reader) (rows []row, failed string, err error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "--- FAIL") || strings.HasPrefix(line, "FAIL") || strings.HasPrefix(line, "panic:") || strings.Contains(line, "_test.go:") {
			failed += line + "\n"
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		rw := row{name: trimProcs(strings.TrimPrefix(f[0], "Benchmark"))}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			switch f[i+1] {
			case "ns/op":
				rw.ns = v
			case "B/op":
				rw.bytes, rw.hasBytes = v, true
			case "allocs/op":
				rw.allocs, rw.hasAlloc = v, true
			}
		}
		if i := strings.LastIndexByte(rw.name, '/'); i >= 0 {
			rw.group, rw.pipeline = rw.name[:i], rw.name[i+1:]
		}
		rows = append(rows, rw)
	}
	return rows, failed, sc.Err()
}

// fastest merges the rows of a benchmark run several times into one, in
// the order the benchmarks first appear, with the least time.
func fastest(rows []row) []row {
	var out []row
	at := map[string]int{}
	for _, r := range rows {
		i, seen := at[r.name]
		if !seen {
			at[r.name] = len(out)
			out = append(out, r)
			continue
		}
		out[i].ns = min(out[i].ns, r.ns)
	}
	return out
}

// trimProcs drops the -GOMAXPROCS suffix go test adds to a name.
func trimProcs(name string) string {
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i]
		}
	}
	return name
}

func write(w io.Writer, rows []row) {
	base := map[string]float64{}
	for _, r := range rows {
		if r.pipeline == "toolgen" {
			base[r.group] = r.ns
		}
	}
	fmt.Fprintln(w, "| benchmark | ns/op | B/op | allocs/op | × toolgen |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, r := range rows {
		ratio := ""
		if b, ok := base[r.group]; ok && b > 0 {
			ratio = strconv.FormatFloat(r.ns/b, 'f', 1, 64)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", r.name, num(r.ns, true), num(r.bytes, r.hasBytes), num(r.allocs, r.hasAlloc), ratio)
	}
	// A group of valid input with a hand-written baseline shows how close
	// toolgen comes (on invalid input the baseline stops at the first
	// problem, toolgen names every one).
	for _, r := range rows {
		if b, ok := base[r.group]; ok && r.pipeline == "handwritten" && r.ns > 0 && strings.HasSuffix(r.group, "/valid") {
			fmt.Fprintf(w, "\n%s: toolgen takes %s× the time of handwritten\n", r.group, strconv.FormatFloat(b/r.ns, 'f', 2, 64))
		}
	}
	// A group with a direct and an executor run shows the executor's cost.
	direct := map[string]row{}
	for _, r := range rows {
		if r.pipeline == "direct" {
			direct[r.group] = r
		}
	}
	for _, r := range rows {
		if d, ok := direct[r.group]; ok && strings.HasPrefix(r.pipeline, "executor") {
			fmt.Fprintf(w, "\n%s: %s adds %s ns, %s B and %s allocs per call to direct\n", r.group, r.pipeline,
				num(r.ns-d.ns, true), num(r.bytes-d.bytes, true), num(r.allocs-d.allocs, true))
		}
	}
}

func num(v float64, ok bool) string {
	if !ok {
		return ""
	}
	if v >= 100 || v == float64(int64(v)) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}
