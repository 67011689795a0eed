package permission

import (
	"strings"
)

// specArg is one argument of a command line as its spec reads it: an
// option (with its value) or an operand, typed.
type specArg struct {
	at    int      // index of the option or operand in the arguments
	valAt int      // index of the value; -1 for none, at when attached
	opt   *optSpec // nil for an operand and for an unknown option
	key   string   // the option's canonical spelling, or as written when unknown
	as    string   // the option as written, without its value
	value string   // the value, or the operand
	typ   argType
	// unknown: an option the spec does not list.
	unknown bool
	// extra: a second value (jq --rawfile NAME FILE: the file), at extraAt.
	extra   string
	extraAt int
	// sp and pos, for a positional operand: the spec that typed it and its
	// position among the operands; pos is -1 otherwise.
	sp  *spec
	pos int
}

// specParse is a command line read by its program's spec.
type specParse struct {
	args []specArg
	// chain names the program and its subcommands, for sentences
	// ("git diff").
	chain []string
	// stop, when at least 0, is the index from which the spec reads
	// nothing (an unknown subcommand or module, whose word is at stop-1
	// and whose name is stopName): allowed only when the entry names it.
	stop     int
	stopName string
	// whole: the (sub)command at wholeAt is refused as a whole unless the
	// entry names it.
	whole   string
	wholeAt int
	// tooMany: more operands than the spec accepts, the first extra one at
	// tooManyAt.
	tooMany   bool
	tooManyAt int
	// notes are what project code the command runs.
	notes []string
	// last is the spec that read the last part of the line (the
	// subcommand's or module's).
	last *spec
	// operands counts the operands last read.
	operands int
	// extract, set by a retype (tarRetype, unzipRetype), is an archive
	// extracted into a directory (specEnv.extractHere).
	extract *extraction
}

// extraction is an archive a program extracts. The names its members
// hold are never seen, so it is refused, unless the entry names it, when
// the directory it extracts into is, or holds, the working directory
// (its links followed), or is not given once (dir is -1).
type extraction struct {
	// dir is the index in args of the directory (tar -C, unzip -d), or -1.
	dir int
	// by is the index in args of what asks for the extraction (tar's -x,
	// unzip's archive): the entry names the extraction when it lies among
	// the entry's own words, or when key is not "" and the entry names it.
	by  int
	key string
	// does says what the extraction does, for the hint.
	does string
}

// parseSpec reads args (args[0] is the program's name) by the spec s.
func parseSpec(s *spec, args []string) *specParse {
	p := &specParse{stop: -1, chain: []string{args[0]}}
	p.read(s, args, 1, nil)
	if s.retype != nil {
		s.retype(p)
	}
	if l := p.last; l != nil && l != s && l.retype != nil {
		l.retype(p) // a subcommand's or module's (python3 -m pytest)
	}
	return p
}

// read reads args[i:] by s; inherited are the parent's options still in
// force.
func (p *specParse) read(s *spec, args []string, i int, inherited []*optSpec) {
	p.last = s
	if s.runsProject != "" {
		p.notes = append(p.notes, s.runsProject)
	}
	if s.whole != "" {
		p.whole, p.wholeAt = s.whole, i-1
		p.stop, p.stopName = i, ""
		return
	}
	opts := s.opts
	if len(inherited) > 0 {
		opts = append(append([]*optSpec(nil), s.opts...), inherited...)
	}
	if s.style == findExpr {
		p.readFind(s, args, i)
		return
	}
	first := i
	var operands []int // indexes into p.args
	scriptGiven, inPlaceSeen, create := false, false, false
	litFrom := -1
	dd := false
	record := func(a specArg) {
		switch a.opt.effectOf() {
		case giveScript:
			scriptGiven = true
		case inPlace:
			inPlaceSeen = true
		case createMode:
			create = true
		case operandsLit:
			if litFrom < 0 {
				litFrom = len(operands)
			}
		}
		p.args = append(p.args, a)
	}
	for i < len(args) {
		a := args[i]
		switch {
		case dd || s.literal:
		case a == "--":
			dd = true
			rest := i + 1
			switch {
			case s.afterDashDash != nil:
				p.chain = append(p.chain, "--")
				p.read(s.afterDashDash, args, rest, nil)
				p.typeOperands(s, operands, scriptGiven, inPlaceSeen, create, litFrom)
				return
			case s.dashDashType != tNone:
				p.args = append(p.args, specArg{at: i, valAt: -1, key: "--", typ: tLit})
				for j := rest; j < len(args); j++ {
					p.args = append(p.args, specArg{at: j, valAt: -1, value: args[j], typ: s.dashDashType, key: "--"})
				}
				p.typeOperands(s, operands, scriptGiven, inPlaceSeen, create, litFrom)
				return
			}
			i++
			continue
		case i == first && s.firstCluster && a != "" && a[0] != '-':
			i = p.traditional(opts, args, i, record)
			continue
		case s.style == goFlags && len(a) > 1 && a[0] == '-':
			var done bool
			i, done = p.goFlag(opts, args, i, record)
			if done {
				p.typeOperands(s, operands, scriptGiven, inPlaceSeen, create, litFrom)
				return
			}
			continue
		case strings.HasPrefix(a, "--") && len(a) > 2:
			var mod *spec
			i, mod = p.long(s, opts, args, i, record)
			if mod != nil {
				p.read(mod, args, i, nil)
				p.typeOperands(s, operands, scriptGiven, inPlaceSeen, create, litFrom)
				return
			}
			continue
		case len(a) > 1 && a[0] == '-':
			var mod *spec
			var stop bool
			i, mod, stop = p.cluster(s, opts, args, i, record)
			if mod != nil {
				p.read(mod, args, i, nil)
			}
			if mod != nil || stop {
				p.typeOperands(s, operands, scriptGiven, inPlaceSeen, create, litFrom)
				return
			}
			continue
		}
		// An operand.
		if s.subs != nil && len(operands) == 0 && !dd {
			if s.plusOperand && strings.HasPrefix(a, "+") {
				arg := specArg{at: i, valAt: -1, value: a, typ: tLit}
				if !toolchainName(a[1:]) {
					// rustup reads +PATH as a toolchain directory and runs
					// its programs.
					arg.typ, arg.opt, arg.key, arg.as = tCode, plusPath, "+", "+TOOLCHAIN"
				}
				p.args = append(p.args, arg)
				i++
				continue
			}
			sub := s.subs[a]
			p.chain = append(p.chain, a)
			if sub == nil {
				p.stop, p.stopName = i+1, a
				return
			}
			var keep []*optSpec
			if s.inherit {
				keep = opts
			}
			p.read(sub, args, i+1, keep)
			return
		}
		operands = append(operands, len(p.args))
		p.args = append(p.args, specArg{at: i, valAt: -1, value: a})
		if s.stopAtOperand {
			dd = true
		}
		i++
	}
	p.typeOperands(s, operands, scriptGiven, inPlaceSeen, create, litFrom)
}

func (o *optSpec) effectOf() optEffect {
	if o == nil {
		return noEffect
	}
	return o.effect
}

// typeOperands gives the operands (indexes into p.args) their types: the
// script first unless an option gave it, then by position.
func (p *specParse) typeOperands(s *spec, operands []int, scriptGiven, inPlaceSeen, create bool, litFrom int) {
	p.operands = len(operands)
	pos := 0
	for n, k := range operands {
		a := &p.args[k]
		switch {
		case s.literal:
			a.typ = tLit
			continue
		case litFrom >= 0 && n >= litFrom:
			a.typ = tLit
			continue
		case s.script != tNone && !scriptGiven && n == 0:
			// The program comes first, whatever '=' it holds (awk
			// 'BEGIN{x=1; system("sh")}' is a program, not an assignment).
			a.typ = s.script
			continue
		case s.assigns != tNone && isAssignment(a.value):
			a.typ = s.assigns
			continue
		}
		switch {
		case s.noOperands, s.maxOperands > 0 && pos >= s.maxOperands, len(s.operands) == 0:
			if !p.tooMany {
				p.tooMany, p.tooManyAt = true, a.at
			}
			a.typ = tLit
			pos++
			continue
		}
		t := s.operands[min(pos, len(s.operands)-1)]
		a.sp, a.pos = s, pos
		pos++
		a.typ = t
	}
	// tar's archive and members take their types from the mode first, so
	// that an option that rewrites or deletes the files it reads (tar
	// --remove-files, zip -m, sed -i) makes the members it reads written.
	for k := range p.args {
		a := &p.args[k]
		switch a.typ {
		case tArchive:
			a.typ = tRead
			if create {
				a.typ = tWrite
			}
		case tMember:
			a.typ = tLit
			if create {
				a.typ = tRead
			}
		}
	}
	if inPlaceSeen {
		for _, k := range operands {
			if a := &p.args[k]; a.sp == s && a.typ == tRead {
				a.typ = tWrite
			}
		}
	}
}

// isAssignment reports whether the operand s assigns a variable: it holds
// a '=' after its first byte (make reads X=1, X:=v, X+=v, X?=v and X!=cmd
// so; awk reads NAME=value).
func isAssignment(s string) bool {
	return strings.IndexByte(s, '=') > 0
}

// long reads the long option at args[i] and returns the index after it;
// mod is the spec that reads the rest, for an option that dispatches.
func (p *specParse) long(s *spec, opts []*optSpec, args []string, i int, record func(specArg)) (int, *spec) {
	name, val, eq := strings.Cut(args[i][2:], "=")
	o, _ := findLong(opts, name, s.abbrev, s.negate)
	if o == nil {
		record(specArg{at: i, valAt: -1, key: "--" + name, unknown: true, typ: tCode})
		return i + 1, nil
	}
	a := specArg{at: i, valAt: -1, opt: o, key: o.key(), as: "--" + name, typ: o.typ}
	if o.arg == noArg {
		if eq {
			a.valAt, a.value = i, val
		} else {
			a.typ = tLit
			if o.typ == tCode {
				a.typ = tCode
			}
		}
		record(a)
		return i + 1, nil
	}
	next := p.value(o, args, i, val, eq, &a)
	if o.effect == dispatch && s.modules[a.value] != nil {
		a.typ = tLit // a module the judge knows
	}
	record(a)
	if o.effect == dispatch {
		if m := s.modules[a.value]; m != nil {
			p.chain = append(p.chain, a.value)
			return next, m
		}
		p.stop, p.stopName = next, a.value
		return len(args), nil
	}
	return next, nil
}

// value fills a's value for the option o at args[i], given attached (val,
// with eq) or in the following arguments, and returns the index after it.
func (p *specParse) value(o *optSpec, args []string, i int, val string, eq bool, a *specArg) int {
	next := i + 1
	switch o.arg {
	case reqArg:
		if eq {
			a.valAt, a.value = i, val
		} else if next < len(args) {
			a.valAt, a.value = next, args[next]
			next++
		}
	case optArg:
		if eq {
			a.valAt, a.value = i, val
		}
	case numArg:
		if eq {
			a.valAt, a.value = i, val
		} else if next < len(args) && digitsOnly(args[next]) {
			a.valAt, a.value = next, args[next]
			next++
		}
	case twoArgs:
		if next+1 < len(args) {
			a.valAt, a.value = next, args[next]
			a.extraAt, a.extra = next+1, args[next+1]
			next += 2
		} else {
			next = len(args)
		}
	case restArgs:
		if eq {
			a.valAt, a.value = i, val
		}
		if next < len(args) {
			a.valAt, a.value = next, strings.Join(args[next:], " ")
		}
		next = len(args)
	}
	return next
}

func digitsOnly(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// cluster reads the short options at args[i] (-xvf, -n5, -ofile) and
// returns the index after them; mod is the spec that reads the rest, for
// an option that dispatches; stop is set when the rest belongs to the
// option (restArgs) or to an unknown module.
func (p *specParse) cluster(s *spec, opts []*optSpec, args []string, i int, record func(specArg)) (int, *spec, bool) {
	a := args[i]
	if s.numeric && digitsOnly(a[1:]) {
		record(specArg{at: i, valAt: i, key: "-NUM", value: a[1:], typ: tLit})
		return i + 1, nil, false
	}
	for j := 1; j < len(a); j++ {
		o := findOpt(opts, "-"+a[j:j+1])
		if o == nil {
			record(specArg{at: i, valAt: -1, key: "-" + a[j:j+1], unknown: true, typ: tCode})
			return i + 1, nil, false
		}
		arg := specArg{at: i, valAt: -1, opt: o, key: o.key(), as: "-" + a[j:j+1], typ: o.typ}
		if o.arg == noArg {
			if o.typ != tCode {
				arg.typ = tLit
			}
			record(arg)
			continue
		}
		rest := a[j+1:]
		var next int
		switch {
		case rest != "" && o.arg != twoArgs:
			arg.valAt, arg.value = i, rest
			next = i + 1
		default:
			next = p.value(o, args, i, "", false, &arg)
		}
		if o.effect == dispatch && s.modules[arg.value] != nil {
			arg.typ = tLit // a module the judge knows
		}
		record(arg)
		if o.arg == restArgs {
			return len(args), nil, true
		}
		if o.effect == dispatch {
			if m := s.modules[arg.value]; m != nil {
				p.chain = append(p.chain, arg.value)
				return next, m, false
			}
			p.stop, p.stopName = next, arg.value
			return len(args), nil, true
		}
		return next, nil, false
	}
	return i + 1, nil, false
}

// traditional reads tar's first argument without a dash: each letter an
// option, the values of those that take one in the following arguments,
// in order.
func (p *specParse) traditional(opts []*optSpec, args []string, i int, record func(specArg)) int {
	a := args[i]
	next := i + 1
	for j := 0; j < len(a); j++ {
		o := findOpt(opts, "-"+a[j:j+1])
		if o == nil {
			record(specArg{at: i, valAt: -1, key: "-" + a[j:j+1], unknown: true, typ: tCode})
			continue
		}
		arg := specArg{at: i, valAt: -1, opt: o, key: o.key(), typ: o.typ}
		if o.arg == reqArg && next < len(args) {
			arg.valAt, arg.value = next, args[next]
			next++
		} else if o.arg == noArg && o.typ != tCode {
			arg.typ = tLit
		}
		record(arg)
	}
	return next
}

// goFlag reads a flag of Go's flag package at args[i] and returns the
// index after it; done is set when the rest belongs to the flag (go test
// -args).
func (p *specParse) goFlag(opts []*optSpec, args []string, i int, record func(specArg)) (int, bool) {
	a := args[i]
	name := strings.TrimPrefix(a[1:], "-")
	if name == "" || name[0] == '-' || name[0] == '=' {
		record(specArg{at: i, valAt: -1, key: a, unknown: true, typ: tCode})
		return i + 1, false
	}
	n, val, eq := strings.Cut(name, "=")
	o := findOpt(opts, "-"+n)
	if o == nil {
		record(specArg{at: i, valAt: -1, key: "-" + n, unknown: true, typ: tCode})
		return i + 1, false
	}
	arg := specArg{at: i, valAt: -1, opt: o, key: o.key(), as: "-" + n, typ: o.typ}
	if o.arg == noArg {
		if eq {
			arg.valAt, arg.value = i, val
		}
		if o.typ != tCode {
			arg.typ = tLit
		}
		record(arg)
		return i + 1, false
	}
	next := p.value(o, args, i, val, eq, &arg)
	record(arg)
	return next, o.arg == restArgs
}

// readFind reads find's arguments: the options -H -L -P -D -O, the
// starting points (read), and the expression, whose primaries the spec
// lists with their values; -exec and its kin take the words up to ";" or
// "+".
func (p *specParse) readFind(s *spec, args []string, i int) {
	// Options before the starting points.
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-L":
			// -L follows every link find meets, out of the tree too.
			p.args = append(p.args, specArg{at: i, valAt: -1, key: a, typ: tCode, opt: findFollow})
			i++
			continue
		case a == "-H" || a == "-P":
			p.args = append(p.args, specArg{at: i, valAt: -1, key: a, typ: tLit})
			i++
			continue
		case a == "-D" && i+1 < len(args):
			p.args = append(p.args, specArg{at: i, valAt: i + 1, key: a, value: args[i+1], typ: tLit})
			i += 2
			continue
		case strings.HasPrefix(a, "-O") && digitsOnly(a[2:]):
			p.args = append(p.args, specArg{at: i, valAt: -1, key: "-O", typ: tLit})
			i++
			continue
		case a == "--":
			i++
		}
		break
	}
	// Starting points.
	for i < len(args) {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == ")" || a == "," {
			break
		}
		p.args = append(p.args, specArg{at: i, valAt: -1, value: a, typ: tRead})
		i++
	}
	// The expression.
	for i < len(args) {
		a := args[i]
		switch a {
		case "(", ")", "!", ",":
			i++
			continue
		}
		o := findOpt(s.opts, a)
		if o == nil {
			p.args = append(p.args, specArg{at: i, valAt: -1, key: a, unknown: true, typ: tCode})
			i++
			continue
		}
		arg := specArg{at: i, valAt: -1, opt: o, key: o.key(), typ: o.typ}
		switch o.arg {
		case noArg:
			if o.typ != tCode {
				arg.typ = tLit
			}
			i++
		case reqArg:
			if i+1 < len(args) {
				arg.valAt, arg.value = i+1, args[i+1]
			}
			i += 2
			if o.key() == "-fprintf" {
				i++ // the format after the file
			}
		case restArgs:
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != "+" {
				j++
			}
			if i+1 < len(args) {
				arg.valAt, arg.value = i+1, strings.Join(args[i+1:min(j, len(args))], " ")
			}
			i = j + 1
		default:
			i++
		}
		p.args = append(p.args, arg)
	}
}

// plusPath is cargo's +TOOLCHAIN when it is not a plain toolchain name.
var plusPath = &optSpec{names: []string{"+"}, typ: tCode, does: "names a toolchain by its directory, whose programs run"}

// toolchainName reports whether s is a plain toolchain name (nightly,
// 1.80.0, stable-x86_64-unknown-linux-gnu): letters, digits, '.', '_'
// and '-', starting with a letter or digit. Anything else (a '/', "..")
// rustup may read as the path of a toolchain directory.
func toolchainName(s string) bool {
	if s == "" || !isAlnum(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
