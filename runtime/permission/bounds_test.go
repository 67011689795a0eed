package permission

import (
	"strings"
	"testing"
)

// worstLines are lines at or beyond the bounds, in the shapes that make the
// parser recurse or allocate the most per byte: nesting, operator chains,
// command substitutions, quotes and plain words.
func worstLines(n int) map[string]string {
	return map[string]string{
		"parens":      strings.Repeat("(", n/2) + "git status" + strings.Repeat(")", n/2),
		"and-chain":   strings.Repeat("git status && ", n/14) + "git status",
		"pipe-chain":  strings.Repeat("git log|", n/8) + "git log",
		"semi-chain":  strings.Repeat("git log;", n/8) + "git log",
		"newlines":    strings.Repeat("git log\n", n/8) + "git log",
		"braces":      strings.Repeat("{ ", n/4) + "git log;" + strings.Repeat(" }", n/4),
		"substs":      "echo " + strings.Repeat("\"$(", n/4) + "a" + strings.Repeat(")\"", n/4),
		"backquotes":  "echo " + strings.Repeat("`", n),
		"negations":   "[[ " + strings.Repeat("! ", n/2) + "a ]]",
		"params":      "echo " + strings.Repeat("${a:-", n/5) + "x" + strings.Repeat("}", n/5),
		"quoted":      "git commit -m " + strings.Repeat("'a b'\"c d\"", n/10),
		"words":       "git add " + strings.Repeat("ab ", n/3),
		"quoted-ops":  "git commit -m '" + strings.Repeat("(&|;)", n/5) + "'",
		"ifs":         strings.Repeat("if ", n/3),
		"whiles":      strings.Repeat("while ", n/6),
		"test-parens": "[[ " + strings.Repeat("( ", n/4) + "a" + strings.Repeat(" )", n/4) + " ]]",
	}
}

// TestBoundsRefuseDeepLines: the lines that crashed the process with a
// stack overflow inside the parser (150 KB of parentheses, 4 MB of
// "git status &&") and every worst shape beyond the bounds are refused, in
// both modes, with a reason that names the bound.
func TestBoundsRefuseDeepLines(t *testing.T) {
	crashers := map[string]string{
		"150KB-parens": strings.Repeat("(", 75_000) + "git status" + strings.Repeat(")", 75_000),
		"4MB-and":      strings.Repeat("git status && ", 4<<20/14) + "git status",
	}
	for name, line := range worstLines(4 * MaxLineBytes) {
		crashers["long-"+name] = line
	}
	for name, line := range worstLines(MaxLineBytes - 64) {
		if checkBounds(line) != "" {
			crashers["dense-"+name] = line
		}
	}
	for _, compound := range []bool{false, true} {
		var opts []Option
		if compound {
			opts = append(opts, WithCompoundCommands())
		}
		l, err := ParseWith([]string{"Bash(git:*)", "Bash(echo:*)"}, opts...)
		if err != nil {
			t.Fatal(err)
		}
		for name, line := range crashers {
			cmds, why := readLine(line, compound)
			if cmds != nil || !strings.Contains(why, "more than the") && !strings.Contains(why, "longer than the") {
				t.Errorf("compound=%v %s: readLine gave %d commands, reason %q; want a refusal naming the bound", compound, name, len(cmds), why)
			}
			if d := l.Decide(cmdReq("Bash", line)); d.Allowed {
				t.Errorf("compound=%v %s: allowed", compound, name)
			}
		}
	}
}

// TestBoundsKeepEverydayLines: lines an agent writes stay far inside the
// bounds: a long commit message with its punctuation, a compound line of a
// dozen commands.
func TestBoundsKeepEverydayLines(t *testing.T) {
	message := strings.Repeat("Fix the parser (again): keep |, & and ; inside quotes; see #12!\n", 60)
	lines := []struct {
		line     string
		compound bool
	}{
		{"git commit -m '" + message + "'", false},
		{"git commit -m \"" + message + "\"", true},
		{strings.Repeat("git status && ", 12) + "git log --oneline -5 | head -n 3", true},
	}
	for _, tt := range lines {
		if why := checkBounds(tt.line); why != "" {
			t.Errorf("%.40q...: refused by the bounds: %s", tt.line, why)
		}
	}
}

// BenchmarkWorstLine is the judge's cost for the worst lines the bounds
// let through (just inside MaxLineBytes and as dense in nesting and
// operators as the bounds allow) and for lines beyond them, in both modes.
// The target: no input above 10 ms or 10 MiB.
func BenchmarkWorstLine(b *testing.B) {
	lines := map[string]string{}
	for name, line := range worstLines(MaxLineBytes - 64) {
		lines["max/"+name] = line
	}
	for name, line := range worstLines(2*MaxLineStructure - 64) {
		lines["dense/"+name] = line
	}
	lines["beyond/4MB-and"] = strings.Repeat("git status && ", 4<<20/14)
	for _, compound := range []bool{false, true} {
		var opts []Option
		mode := "strict"
		if compound {
			opts, mode = append(opts, WithCompoundCommands()), "compound"
		}
		l, err := ParseWith([]string{"Bash(git:*)", "Bash(echo:*)"}, opts...)
		if err != nil {
			b.Fatal(err)
		}
		for name, line := range lines {
			b.Run(mode+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				req := cmdReq("Bash", line)
				for b.Loop() {
					_ = l.Decide(req)
				}
			})
		}
	}
}
