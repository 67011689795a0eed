package permission

import (
	"maps"
	"strings"
	"sync"
)

// specTable returns the specs of the programs the judge knows, by name,
// built on first use (not at package initialisation: a program that never
// judges a command line pays nothing for them). The spec_*.go files hold
// them by family.
var specTable = sync.OnceValue(func() map[string]*spec {
	m := map[string]*spec{}
	for _, f := range []func() map[string]*spec{fileSpecs, searchSpecs, gitSpecs, goSpecs, nodeSpecs, buildSpecs, archiveSpecs} {
		maps.Copy(m, f())
	}
	return m
})

// o reads a compact list of options: space-separated groups, each the
// option's spellings joined by '|', then what its value is:
//
//	-n|--lines      no value
//	--force!        no value, refused unless the entry names it (also
//	                before a value: --inspect!=?)
//	-n|--lines=     a value (attached or in the next argument), a literal
//	--color=?       an optional value, attached only
//	-j=#            an optional value, attached or a number in the next argument
//	--arg=2         two values in the next arguments (jq --arg NAME VALUE)
//	-args=...       every argument after it
//
// and after '=' the value's type: r read, w written, d a directory worked
// in, x code, p project code, sed, awk, jq, ld, gc, plugin, archive, repo
// (a git repository), gitdir (git's --git-dir); a plain '=' is a literal.
// A '+' and an effect may end a group: +script
// (the option gives the script, so the first operand is a file), +inplace
// (file operands are rewritten), +create (tar creates), +argslit (later
// operands are literals), +dispatch (the value names a module).
func o(list string) []*optSpec {
	var out []*optSpec
	for _, g := range strings.Fields(list) {
		op := &optSpec{typ: tLit}
		g, eff, _ := strings.Cut(g, "+")
		switch eff {
		case "script":
			op.effect = giveScript
		case "inplace":
			op.effect = inPlace
		case "create":
			op.effect = createMode
		case "argslit":
			op.effect = operandsLit
		case "dispatch":
			op.effect = dispatch
		case "":
		default:
			panic("permission: unknown option effect " + eff)
		}
		names, val, hasVal := strings.Cut(g, "=")
		names, refused := strings.CutSuffix(names, "!")
		op.names = strings.Split(names, "|")
		if hasVal {
			op.arg = reqArg
			switch {
			case strings.HasPrefix(val, "?"):
				op.arg, val = optArg, val[1:]
			case strings.HasPrefix(val, "#"):
				op.arg, val = numArg, val[1:]
			case strings.HasPrefix(val, "2"):
				op.arg, val = twoArgs, val[1:]
			case val == "...":
				op.arg, val = restArgs, "x"
			}
			op.typ = valueType(val)
		}
		if refused {
			op.typ = tCode
		}
		out = append(out, op)
	}
	return out
}

func valueType(v string) argType {
	switch v {
	case "":
		return tLit
	case "r":
		return tRead
	case "w":
		return tWrite
	case "d":
		return tDir
	case "x":
		return tCode
	case "p":
		return tProject
	case "sed":
		return tSed
	case "awk":
		return tAwk
	case "jq":
		return tJq
	case "ld":
		return tLdflags
	case "gc":
		return tGcflags
	case "plugin":
		return tPlugin
	case "archive":
		return tArchive
	case "repo":
		return tRepo
	case "gitdir":
		return tGitDir
	}
	panic("permission: unknown value type " + v)
}

// cat joins option lists.
func cat(lists ...[]*optSpec) []*optSpec {
	var out []*optSpec
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// does sets what the named options do, for the sentence that refuses them.
func does(opts []*optSpec, what string, names ...string) []*optSpec {
	for _, n := range names {
		if op := findOpt(opts, n); op != nil {
			op.does = what
		} else {
			panic("permission: does: no option " + n)
		}
	}
	return opts
}

// ops are operand types by position, the last repeating.
func ops(t ...argType) []argType { return t }

// help are the options every GNU program takes.
const help = " --help --version"
