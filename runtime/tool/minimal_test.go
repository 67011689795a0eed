package tool_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/minimal.golden")

// maxMinimalBytes bounds the binary of a program that links runtime/tool
// alone (issue "a lean runtime": 6.43 MB while every program linked the
// complete JSON Schema validator).
const maxMinimalBytes = 5_000_000

// TestMinimalProgram builds testdata/minimal, a program that runs tools
// with runtime/tool alone, and holds it to what such a program may pay
// for: no complete JSON Schema validator (santhosh-tekuri/jsonschema and
// golang.org/x/text, linked only by importing runtime/schema/full), and a
// binary of at most 5.0 MB. It logs the program's package initialisation
// (GODEBUG=inittrace=1) as measured, without a bound: time on a shared
// machine is not deterministic. It runs the program and compares what the
// gate answered, and logged, with testdata/minimal.golden: a schema that
// only the complete validator checks is refused under schema.Enforce with
// a sentence naming the package to import, logged once under schema.Warn,
// and named at registration.
func TestMinimalProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and links a program (-short)")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is needed to build the program: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "minimal")
	if out, err := exec.Command(gobin, "build", "-o", bin, "./testdata/minimal").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	mods, err := exec.Command(gobin, "version", "-m", bin).Output()
	if err != nil {
		t.Fatalf("go version -m: %v", err)
	}
	for _, heavy := range []string{"github.com/santhosh-tekuri/jsonschema", "golang.org/x/text"} {
		if bytes.Contains(mods, []byte(heavy)) {
			t.Errorf("the program links %s:\n%s", heavy, mods)
		}
	}
	st, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() > maxMinimalBytes {
		t.Errorf("the program is %d bytes, more than %d", st.Size(), maxMinimalBytes)
	}

	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the program failed: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	total, top := initCost(stderr.String())
	t.Logf("binary %d bytes (%.2f MB); package initialisation %.3f ms in all, of which %s", st.Size(), float64(st.Size())/1e6, total, top)

	golden := filepath.Join("testdata", "minimal.golden")
	if *update {
		if err := os.WriteFile(golden, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), stdout.String()); diff != "" {
		t.Errorf("the program's answers (-want +got):\n%s", diff)
	}
}

// initCost sums the inittrace lines ("init pkg @0.1 ms, 0.02 ms clock, 312
// bytes, 7 allocs") and names the five packages that took longest.
func initCost(trace string) (float64, string) {
	type pkg struct {
		name string
		ms   float64
	}
	var pkgs []pkg
	var total float64
	for _, line := range strings.Split(trace, "\n") {
		f := strings.Fields(line)
		if len(f) < 7 || f[0] != "init" || f[6] != "clock," {
			continue
		}
		ms, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			continue
		}
		total += ms
		pkgs = append(pkgs, pkg{f[1], ms})
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].ms > pkgs[j].ms })
	var b strings.Builder
	for i, p := range pkgs {
		if i == 5 {
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %.3f ms", p.name, p.ms)
	}
	return total, b.String()
}
