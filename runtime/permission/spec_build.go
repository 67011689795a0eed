package permission

// The specs of make, cargo, python3 (with -m pytest) and pytest: build
// and test runners. What they run from the project's files (a Makefile's
// recipes, build.rs, the tests, conftest.py) is the project's code and
// the sandbox's job; what the command line injects (make --eval and
// variable assignments, cargo --config, python3 -c) is refused unless the
// entry names it.

import (
	"path"
	"strings"
)

// buildSpecs builds this file's specs, by program name (see specTable).
func buildSpecs() map[string]*spec {
	makeSpec := &spec{abbrev: true, operands: ops(tLit), assigns: tCode,
		runsProject: "runs the recipes of the project's Makefile",
		opts: does(o("-b -m -B|--always-make -C|--directory=d -d --debug=? -e|--environment-overrides -E|--eval=x -f|--file|--makefile=p "+
			"-i|--ignore-errors -I|--include-dir=p -j|--jobs=# -k|--keep-going -S|--no-keep-going|--stop -l|--load-average=# "+
			"-L|--check-symlink-times -n|--just-print|--dry-run|--recon -o|--old-file|--assume-old= -O|--output-sync=? "+
			"-p|--print-data-base -q|--question -r|--no-builtin-rules -R|--no-builtin-variables --shuffle=? -s|--silent|--quiet "+
			"--no-silent -t|--touch --trace -v|--version -w|--print-directory --no-print-directory -W|--what-if|--new-file|--assume-new= "+
			"--warn-undefined-variables -h|--help"),
			"evaluates make code given on the command line, which may run programs ($(shell ...))", "--eval"),
		allow: []string{"make test", "make -j4 test", "make -k build test", "make -j 4", "make -C sub test", "make -n"},
		deny: []string{"make test --eval='$(shell touch x)'", "make test 'X:=$(shell touch x)'", "make test X=1", "make -f /outside/Makefile test",
			"make test --ev=x", "make -C /outside test", "make --frobnicate"},
	}
	// libtestSpec reads the arguments cargo test passes to the test binaries
	// after "--".
	libtestSpec := &spec{operands: ops(tLit),
		opts: o("--include-ignored --ignored --force-run-in-process --exclude-should-panic --test --bench --list --logfile=w --nocapture " +
			"--no-capture --test-threads= --skip= -q|--quiet --exact --color= --format= --show-output -Z= --report-time --ensure-time --shuffle --shuffle-seed= -h|--help"),
	}
	cargoCommon := does(o("-p|--package= --workspace --all --exclude= --lib --bins --bin= --tests --test= --examples --example= "+
		"--benches --bench= --all-targets -F|--features= --all-features --no-default-features -j|--jobs= --keep-going -r|--release "+
		"--profile= --target= --target-dir=w --artifact-dir|--out-dir=w --unit-graph --timings=? --manifest-path=p --lockfile-path=p "+
		"--ignore-rust-version --locked --offline --frozen -q|--quiet -v|--verbose --color= --message-format= --future-incompat-report "+
		"--config=x -Z=x -C=d -h|--help -V|--version --no-run --no-fail-fast --doc --all-targets --build-plan"),
		"sets configuration, which may name programs to run (a runner, a linker)", "--config", "-Z")
	cargoBuild := &spec{operands: ops(tLit), afterDashDash: libtestSpec}
	cargoSpec := &spec{inherit: true, plusOperand: true, opts: cargoCommon, noOperands: true,
		subs: map[string]*spec{
			"test":     withProject(&spec{operands: ops(tLit), afterDashDash: libtestSpec}, "runs the project's build scripts and tests"),
			"t":        withProject(&spec{operands: ops(tLit), afterDashDash: libtestSpec}, "runs the project's build scripts and tests"),
			"bench":    withProject(&spec{operands: ops(tLit), afterDashDash: libtestSpec}, "runs the project's build scripts and benchmarks"),
			"build":    withProject(cargoBuild, "runs the project's build scripts"),
			"b":        withProject(cargoBuild, "runs the project's build scripts"),
			"check":    withProject(cargoBuild, "runs the project's build scripts"),
			"c":        withProject(cargoBuild, "runs the project's build scripts"),
			"clippy":   withProject(&spec{operands: ops(tLit), dashDashType: tLit}, "runs the project's build scripts"),
			"doc":      withProject(&spec{opts: o("--open! --no-deps --document-private-items"), operands: ops(tLit)}, "runs the project's build scripts"),
			"fmt":      {opts: o("--all --check --message-format="), operands: ops(tLit), dashDashType: tLit},
			"tree":     {opts: o("-e|--edges= -i|--invert= --prefix= --no-dedupe -d|--duplicates --charset= -f|--format= --depth="), noOperands: true},
			"metadata": {opts: o("--format-version= --no-deps --filter-platform="), noOperands: true},
			"version":  {noOperands: true},
			"run":      {whole: "builds and runs a program"}, "r": {whole: "builds and runs a program"},
			"install": {whole: "builds and installs a program, running its build scripts"},
		},
		allow: []string{"cargo test", "cargo test -p core -- --nocapture", "cargo build --release", "cargo +nightly test", "cargo clippy --all-targets", "cargo fmt --check"},
		deny: []string{"cargo test --config 'target.x.runner=[\"sh\"]'", "cargo --config x=1 test", "cargo test --target-dir=/outside/x", "cargo run", "cargo test -- --logfile=/tmp/x",
			"cargo test --frobnicate"},
	}
	// pytestSpec reads pytest's options (argparse without abbreviations:
	// pytest turns them off). Node ids (tests/test_x.py::test_one) are read
	// paths.
	pytestSpec := &spec{operands: ops(tRead), runsProject: "runs the project's tests and conftest.py",
		opts: o("-k= -m= -x|--exitfirst --maxfail= -v|--verbose -q|--quiet -s --capture= -l|--showlocals --tb= -r= --lf|--last-failed " +
			"--ff|--failed-first --nf|--new-first --sw|--stepwise --sw-skip|--stepwise-skip --co|--collect-only --durations= " +
			"--durations-min= -p=plugin -c|--config-file=r --rootdir=d --confcutdir=d --basetemp=w --junitxml|--junit-xml=w " +
			"--color= --code-highlight= -W|--pythonwarnings= --log-level= --log-cli-level= --log-format= --log-file=w " +
			"--no-header --no-summary --disable-warnings|--disable-pytest-warnings --import-mode= --doctest-modules --doctest-glob= " +
			"--strict-markers --strict-config --runxfail --ignore=r --ignore-glob= --deselect= --continue-on-collection-errors " +
			"--full-trace --showlocals --no-showlocals -n|--numprocesses= --dist= --cov=? --cov-report= --cov-fail-under= " +
			"--cache-clear --cache-show=? --setup-only --setup-show --setup-plan --fixtures --fixtures-per-test --markers " +
			"-V|--version -h|--help --debug=?w --trace-config --pdb! --trace! -o|--override-ini=x --timeout= --reruns="),
		allow:  []string{"pytest", "pytest tests/", "pytest tests/test_x.py::test_one", "pytest -k 'not slow' tests", "pytest -x -q", "pytest -c pytest.ini", "pytest -p no:cacheprovider"},
		deny:   []string{"pytest -p evil", "pytest -o addopts=-pevil", "pytest /outside/tests", "pytest --frobnicate", "pytest --basetemp=.", "pytest --basetemp=tmp/.."},
		retype: pytestRetype,
	}
	pythonSpec := &spec{stopAtOperand: true, operands: ops(tProject, tLit), runsProject: "runs the project's scripts",
		opts: does(does(o("-b -B -d -E -h|-?|--help -i! -I -O -OO -P -q -s -S -u -v -V|--version -W= -x -X= --check-hash-based-pycs= "+
			"-c=x -m=x+dispatch"), "runs code given on the command line", "-c"),
			"runs a module, which the judge knows only for pytest", "-m"),
		modules: map[string]*spec{"pytest": pytestSpec, "py.test": pytestSpec},
		retype:  pythonRetype,
		allow:   []string{"python3 --version", "python3 script.py arg", "python3 -m pytest -q", "python3 -X utf8 -m pytest", "python3 -Xdev -X int_max_str_digits=0 script.py"},
		deny:    []string{"python3 -c 'import os'", "python3 /outside/x.py", "python3 -m http.server", "python3 -X pycache_prefix=/outside/pyc -m pytest"},
	}
	return map[string]*spec{
		"make":    makeSpec,
		"cargo":   cargoSpec,
		"python3": pythonSpec,
		"python":  pythonSpec,
		"pytest":  pytestSpec,
	}
}

// pytestBasetemp is pytest's --basetemp naming the working directory,
// which pytest deletes before a run that uses tmp_path.
var pytestBasetemp = &optSpec{names: []string{"--basetemp"}, typ: tCode,
	does: "names the directory pytest deletes and makes anew, here the working directory itself"}

// pytestRetype refuses, unless named, a --basetemp that is the working
// directory ("." or a path that comes back to it): pytest deletes it.
// Elsewhere it is a written path, so not hidden (.git) nor outside.
func pytestRetype(p *specParse) {
	for k := range p.args {
		if a := &p.args[k]; a.key == "--basetemp" && path.Clean(a.value) == "." {
			a.typ, a.opt = tCode, pytestBasetemp
		}
	}
}

// pythonX are the -X options of python3 that only change how it runs:
// without a value, or with one of the values listed ("#" any number).
// Others (pycache_prefix=PATH writes .pyc files there; presite=MODULE
// imports a module) are refused unless named.
var pythonX = map[string][]string{
	"utf8": {"", "0", "1"}, "dev": {""}, "importtime": {"", "#"}, "faulthandler": {""},
	"warn_default_encoding": {""}, "frozen_modules": {"on", "off"}, "no_debug_ranges": {""},
	"int_max_str_digits": {"#"}, "tracemalloc": {"", "#"}, "showrefcount": {""}, "cpu_count": {"#", "default"},
	"gil": {"0", "1"}, "disable_remote_debug": {""},
}

// pythonXUnknown is a -X option not in pythonX.
var pythonXUnknown = &optSpec{names: []string{"-X"}, typ: tCode,
	does: "sets an interpreter option the judge does not know (pycache_prefix= writes anywhere, presite= imports a module)"}

// pythonRetype refuses, unless named, a -X option not in pythonX.
func pythonRetype(p *specParse) {
	for k := range p.args {
		if a := &p.args[k]; a.key == "-X" && a.opt != nil && a.opt.typ == tLit && !pythonXKnown(a.value) {
			a.typ, a.opt = tCode, pythonXUnknown
		}
	}
}

func pythonXKnown(x string) bool {
	name, val, _ := strings.Cut(x, "=")
	for _, v := range pythonX[name] {
		if v == val || v == "#" && val != "" && strings.Trim(val, "0123456789") == "" {
			return true
		}
	}
	return false
}
