package permission

import (
	"path"
	"strings"
)

// A spec is what the judge knows of one program (or subcommand): every
// option it accepts, how each option's value attaches, and what each value
// and operand is. A command line of a program with a spec is read the way
// the program's own parser reads it (getopt_long's clusters and unique
// prefixes, Go's flag package, find's expression), and an argument the
// spec does not know is refused: the table is positive. See specs.go and
// the spec_*.go files for the programs, specjudge.go for how the typed
// arguments are judged.
type spec struct {
	// style is the program's option syntax.
	style optStyle
	// opts are the options, each with its spellings.
	opts []*optSpec
	// abbrev: a long option may be shortened to a unique prefix, as
	// getopt_long, git's parse-options and npm's nopt accept.
	abbrev bool
	// negate: every long option may be negated with --no-NAME (git).
	negate bool
	// numeric: -NUM is an option (head -5, git log -3, gzip -9).
	numeric bool
	// script is the type of the first operand, the program text or
	// pattern (grep's pattern, sed's script, awk's program, jq's filter),
	// unless an option with the script effect gave it (grep -e, sed -f).
	script argType
	// operands are the types of the operands by position; the last
	// repeats. No operands at all are accepted when it is empty and
	// maxOperands is 0 with noOperands set.
	operands []argType
	// maxOperands, when positive, is how many operands are accepted.
	maxOperands int
	// noOperands: the program takes no operands.
	noOperands bool
	// assigns, when not tNone, is the type of an operand NAME=value (awk
	// assigns a variable; make's assignments may run programs).
	assigns argType
	// subs are the subcommands, by name; the first operand names one. An
	// unknown subcommand is refused. inherit keeps the parent's options in
	// force after the subcommand (npm's, cargo's).
	subs    map[string]*spec
	inherit bool
	// plusOperand: an operand +NAME before the subcommand is a literal
	// (cargo +nightly test).
	plusOperand bool
	// stopAtOperand: options end at the first operand, and the rest are
	// operands (node's script arguments, Go's flag package).
	stopAtOperand bool
	// afterDashDash, when set, reads the arguments after "--": another
	// spec (cargo test -- --nocapture goes to libtest), or nil with
	// dashDashType saying what they are.
	afterDashDash *spec
	dashDashType  argType
	// firstCluster: a first argument without a dash is a cluster of short
	// options whose values follow in order (tar xzf a.tar).
	firstCluster bool
	// literal: every argument is a literal; there are no options (echo,
	// printf).
	literal bool
	// whole, when set, is why any use of the (sub)command is refused unless
	// the entry names it (go run, git filter-branch).
	whole string
	// runsProject, when set, says what project code the (sub)command runs
	// (a Makefile's recipes, the tests): the sandbox's job, not the
	// judge's; Lint says it for each entry that reaches it.
	runsProject string
	// modules dispatch python3 -m NAME to NAME's spec.
	modules map[string]*spec
	// retype, when set, retypes the arguments of a whole line after it is
	// read, for what depends on several of them (tar's -x with its -C,
	// -f with --force-local).
	retype func(p *specParse)
	// walk, when set, says what the program walks following the links
	// it meets there by default (zip -r, diff): specEnv.walkLinks.
	walk func(p *specParse) *walk
	// examples: whole command lines that Bash(<program>:*) must allow and
	// deny; a test checks them.
	allow, deny []string
}

// optStyle is how a program reads its options.
type optStyle uint8

const (
	// gnu: getopt_long: short options in clusters (-xvf), values attached
	// or in the next argument, long options with =value or the next
	// argument, "--" ends the options, options and operands mix.
	gnu optStyle = iota
	// goFlags: Go's flag package: -name or --name, -name=value or -name
	// value for a flag that takes one; no clusters, no abbreviations.
	goFlags
	// findExpr: find's options, starting points and expression.
	findExpr
)

// optSpec is one option.
type optSpec struct {
	// names are the spellings: "-n", "--lines", or "-name" for goFlags and
	// find.
	names []string
	// arg says whether and how a value attaches.
	arg argMode
	// typ is what the value is (or, for an option without a value that is
	// refused unless named, tCode).
	typ argType
	// effect changes how the rest of the line is read.
	effect optEffect
	// does, for a refused option, says what it does.
	does string
}

// key is the option's canonical spelling, by which an entry names it.
func (o *optSpec) key() string { return o.names[0] }

// argMode is whether an option takes a value.
type argMode uint8

const (
	noArg    argMode = iota
	reqArg           // required: attached (-ofile, --out=file) or the next argument
	optArg           // optional: attached only (--color=always, -i.bak)
	twoArgs          // two values in the next arguments (jq --arg NAME VALUE)
	numArg           // optional, attached, or the next argument when it is a number (make -j 4)
	restArgs         // every argument after it is the option's (go test -args)
)

// argType is what an argument is, and so how it is judged.
type argType uint8

const (
	tNone    argType = iota
	tLit             // text, a pattern, a number, a revision, a name: nothing to judge
	tRead            // a path the program reads
	tWrite           // a path the program writes
	tDir             // a directory the program works in: it reads and writes there
	tCode            // code the program runs: refused unless the entry names it
	tProject         // a file of the project's own code it runs (make -f): in the workspace only
	tSed             // a sed script
	tAwk             // an awk program
	tJq              // a jq filter
	tLdflags         // go's -ldflags
	tGcflags         // go's -gcflags
	tPlugin          // pytest -p: only no:NAME (disabling a plugin)
	tArchive         // tar's -f: written when the mode creates, else read
	tMember          // tar's operand: read when creating, else a member name
	tProgram         // an operand naming a program (which): a literal
	tRepo            // a git repository: a URL reaches the network, a local path or file:// URL is read
	tGitDir          // git's --git-dir: only the workspace's own repository
)

// optEffect changes how the rest of a line is read.
type optEffect uint8

const (
	noEffect    optEffect = iota
	giveScript            // the script was given by the option: the first operand is a file
	inPlace               // the program rewrites its file operands (sed -i, gofmt -w)
	createMode            // tar creates an archive: -f is written, operands read
	operandsLit           // the rest of the operands are literals (jq --args)
	dispatch              // the value names a module whose spec reads the rest (python3 -m)
)

// specOf returns the spec of a command name: the name itself, or for an
// absolute path its base name (/usr/bin/git is git). A relative path with
// a slash (./sort) is the project's own program, whose options no spec
// describes.
func specOf(name string) *spec {
	if s := specTable()[name]; s != nil {
		return s
	}
	if strings.HasPrefix(name, "/") {
		return specTable()[path.Base(name)]
	}
	return nil
}

// findOpt returns the option spelt name in opts.
func findOpt(opts []*optSpec, name string) *optSpec {
	for _, o := range opts {
		for _, n := range o.names {
			if n == name {
				return o
			}
		}
	}
	return nil
}

// findLong returns the long option name (without its dashes) means: an
// exact spelling, or with abbrev the only option it is a prefix of; with
// negate, --no-NAME means NAME. ambiguous is set when a prefix fits more
// than one option.
func findLong(opts []*optSpec, name string, abbrev, negate bool) (o *optSpec, ambiguous bool) {
	if o := findOpt(opts, "--"+name); o != nil {
		return o, false
	}
	if negate {
		if base, ok := strings.CutPrefix(name, "no-"); ok {
			if o := findOpt(opts, "--"+base); o != nil && o.arg != reqArg && o.typ != tCode {
				return &optSpec{names: []string{"--no-" + base}}, false
			}
		}
	}
	if !abbrev || name == "" {
		return nil, false
	}
	var found *optSpec
	for _, o := range opts {
		for _, n := range o.names {
			if long, ok := strings.CutPrefix(n, "--"); ok && strings.HasPrefix(long, name) {
				if found != nil && found != o {
					return nil, true
				}
				found = o
			}
		}
	}
	return found, false
}
