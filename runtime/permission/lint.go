package permission

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Finding is one thing Lint reports about an entry.
type Finding struct {
	// Entry is the entry as written.
	Entry string
	// Message says what is wrong and what to do.
	Message string
}

// String returns "entry: message".
func (f Finding) String() string { return f.Entry + ": " + f.Message }

// runner is how a command runs arbitrary code in practice.
type runner struct {
	why string
	// bare: flagged only when the pattern is the command alone, or the
	// command followed by an option; otherwise flagged for any prefix.
	bare bool
}

var runners = func() map[string]runner {
	m := map[string]runner{}
	add := func(why string, bare bool, names ...string) {
		for _, n := range names {
			m[n] = runner{why, bare}
		}
	}
	add("runs the command given in its arguments", false,
		"env", "xargs", "timeout", "nice", "nohup", "sudo", "doas", "su", "runuser", "pkexec",
		"stdbuf", "setsid", "chroot", "watch", "time", "command", "builtin", "exec", "eval",
		"strace", "ltrace", "flock", "unshare", "nsenter", "ionice", "taskset", "chrt",
		"parallel", "script", "busybox", "ssh")
	add("is an interpreter that runs the code given in its arguments", true,
		"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "python", "python2",
		"python3", "node", "deno", "bun", "perl", "ruby", "php", "lua", "tclsh", "Rscript",
		"pwsh", "powershell", "osascript", "expect", "source", ".")
	add("runs programs through its options (-exec, -execdir, -ok, -delete)", false, "find")
	add("runs programs through system() and pipes in its program", false, "awk", "gawk", "mawk", "nawk")
	add("runs programs through its e command and writes files with its w command", false, "sed")
	add("runs programs through --to-command and --checkpoint-action", false, "tar")
	add("runs programs through -e and --rsh", false, "rsync")
	add("runs programs through shell escapes", false, "vi", "vim", "nvim", "emacs", "less", "more", "man", "ed", "gdb")
	add("runs programs through -c options, aliases and hooks", true, "git")
	add("runs recipes and scripts the agent can write", true, "make", "npm", "npx", "yarn", "pnpm", "go", "cargo", "docker", "kubectl")
	return m
}()

// Lint reports entries that allow more than they seem to or can never
// match: COMMAND patterns that allow arbitrary execution in practice
// (Bash(find:*) with -exec, Bash(env:*), Bash(xargs:*), Bash(timeout:*),
// shells, interpreters, sudo, nice, nohup, ...), patterns that can never
// match (a PATH pattern whose fixed directory is reached through a
// symbolic link, a path pattern requiring a backslash, double spaces under
// the compound judge), patterns only a tool's own rule can judge, names
// that differ only in case from a known tool, redundant and shadowed
// entries. Lint reads the file system to resolve the fixed directories of
// PATH patterns. Findings come in list order.
func Lint(l List) []Finding {
	out := append([]Finding(nil), l.notes...)
	for _, name := range l.order {
		if _, known := l.kinds[name]; !known {
			for k := range l.kinds {
				if strings.EqualFold(k, name) {
					out = append(out, Finding{Entry: name, Message: fmt.Sprintf("tool names are case-sensitive; did you mean %s?", k)})
				}
			}
		}
		for _, g := range l.tools[name].groups {
			for _, p := range g {
				out = append(out, lintPattern(l, p, g)...)
			}
		}
	}
	return out
}

func lintPattern(l List, p *pattern, group []*pattern) []Finding {
	var out []Finding
	add := func(format string, args ...any) {
		out = append(out, Finding{Entry: p.entry, Message: fmt.Sprintf(format, args...)})
	}
	isCmd := p.kind == Command || (p.kind == 0 && p.cmdOK && !p.pathOK)
	isPath := p.kind == Path || (p.kind == 0 && p.pathOK)
	if p.kind == 0 && !p.cmdOK && !p.pathOK {
		add("the pattern is neither a COMMAND nor a PATH pattern; only the tool's own rule can match it")
	}
	if isCmd {
		word := p.cmd.firstWord()
		base := path.Base(word)
		if r, ok := runners[base]; ok && p.cmd.prefix {
			second := strings.Fields(p.cmd.text)
			if !r.bare || len(second) == 1 || strings.HasPrefix(second[1], "-") {
				add("allows arbitrary execution in practice: %s %s; allow the exact commands needed instead", base, r.why)
			}
		}
		if l.compound && opaque[unquoteText(word)] {
			add("can never match: the compound-command judge refuses %s", word)
		}
		if l.compound && strings.Contains(p.cmd.text, "  ") {
			add("can never match: the compound-command judge joins words with single spaces")
		}
		for _, q := range group {
			if q != p && q.cmdOK && q.cmd.prefix && (q.kind == Command || q.kind == 0) && q.cmd.match(p.cmd.text) && !(p.cmd.prefix && p.cmd.text == q.cmd.text) {
				add("is redundant: %s already allows it", q.entry)
				break
			}
		}
	}
	if isPath {
		if strings.Contains(p.path.glob, `\\`) {
			add("can never match: paths with backslashes are refused")
		}
		base, _ := doublestar.SplitPattern(p.path.glob)
		if real, err := filepath.EvalSymlinks(base); err == nil && filepath.ToSlash(real) != base {
			add("can never match: %s resolves through a symbolic link to %s, and both paths must match; write the pattern under %s", base, filepath.ToSlash(real), filepath.ToSlash(real))
		} else if err != nil && !os.IsNotExist(err) {
			add("cannot be checked: %v", err)
		}
	}
	return out
}

// unquoteText removes quotes and backslashes from a word.
func unquoteText(s string) string {
	return strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(s)
}
