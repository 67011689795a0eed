package permission

// The command table: commands whose arguments make them run programs, write
// files or read beyond what their name suggests, with the arguments that
// do it. A ":*" entry for one of these commands denies a call that carries
// one of these arguments after the entry's own words, unless the entry
// names that argument itself (Bash(sort --compress-program=gzip:*)); Lint
// reports every ":*" entry of a command in the table. Commands and
// subcommands carry examples that Bash(<command>:*) must deny and allow,
// and so must Bash(<command> <subcommand>:*) unless the subcommand is risky
// as a whole; a test checks them through the must-allow/must-deny
// mechanism of Entry.

// Effects of a risky argument, as Lint words them.
const (
	runs       = "runs a program"
	writes     = "writes a file"
	deletes    = "deletes files"
	readsOut   = "reads files outside the workspace"
	elsewhere  = "works in another directory"
	configures = "sets configuration that runs programs"
)

// commandRisk describes one command (or subcommand) of the table.
type commandRisk struct {
	// opts are the risky options, as written: "--compress-program" (a
	// long option), "-I" (a short one, also found inside a cluster such as
	// -xIf), or "-exec" for a command whose options are words (singleDash).
	opts []riskyOption
	// values are the short options that take a value: a cluster ends at
	// them, and the value may be the next argument.
	values string
	// longValues are long options whose value may be the next argument.
	longValues []string
	// abbrev: a long option may be abbreviated to a prefix, as GNU
	// getopt_long, git and npm accept (--compress-prog is
	// --compress-program). A prefix of a risky option counts as it.
	abbrev bool
	// singleDash: options are words such as -exec, with one dash or two
	// (find, go); there are no clusters.
	singleDash bool
	// noDashDash: "--" does not end the options (find's expression).
	noDashDash bool
	// firstCluster: the first argument is a cluster of short options even
	// without a dash (tar xIf).
	firstCluster bool
	// plus: an argument starting with '+' is a command (less +cmd).
	plus string
	// operand, when set, is what the first operand does (after skip
	// operands): a runner's command or an interpreter's script.
	operand string
	skip    int
	// assignOperands: operands NAME=value come before the command (env).
	assignOperands bool
	// assignRuns, when set, is what an operand NAME=value does (make's
	// variable assignments, whose values may call $(shell ...)).
	assignRuns string
	// afterDashDash, when set, is what the arguments after "--" do (npm run
	// hands them to the script's interpreter).
	afterDashDash string
	// pathOperands, when set, is what an operand that reaches outside the
	// working directory's tree does (git diff /outside/secret /dev/null
	// switches to --no-index and prints the file).
	pathOperands string
	// endAtOperand: options end at the first operand; what follows belongs
	// to the program it names (interpreters, runners).
	endAtOperand bool
	// script checks the program text of sed and awk.
	script func(args []string) []hit
	// note, when set, is what the command runs that no argument shows (git's
	// hooks and aliases); Lint reports it for every entry that reaches it.
	note string
	// whole, when set, says what any use of the (sub)command does.
	whole string
	// subs are subcommands, by name; an unknown subcommand ends the scan
	// unless inherit is set, in which case the options stay in force.
	subs    map[string]*commandRisk
	inherit bool
	// deny and allow are examples, whole command lines: the entry
	// Bash(<command>:*), and for a subcommand not risky as a whole also
	// Bash(<command> <subcommand>:*), must deny every deny example and
	// allow every allow example.
	deny, allow []string
}

// riskyOption is one option of a commandRisk and what it does.
type riskyOption struct {
	name, does string
}

func opt(does string, names ...string) []riskyOption {
	out := make([]riskyOption, len(names))
	for i, n := range names {
		out[i] = riskyOption{n, does}
	}
	return out
}

func opts(groups ...[]riskyOption) []riskyOption {
	var out []riskyOption
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// Interpreters and runners: the first operand is a program to run.
const (
	runsArgs   = "runs the command given in its arguments"
	runsScript = "is an interpreter that runs the code given in its arguments"
	runsRecipe = "runs recipes and scripts the agent can write"
)

func runnerRisk(values string, skip int, o ...[]riskyOption) *commandRisk {
	return &commandRisk{operand: runsArgs, skip: skip, endAtOperand: true, values: values, opts: opts(o...)}
}

func interpreter(values string, o ...[]riskyOption) *commandRisk {
	return &commandRisk{operand: runsScript, endAtOperand: true, values: values, opts: opts(o...)}
}

// risks is the command table, by command name (the base name of the first
// word).
var risks = map[string]*commandRisk{
	"less": lessRisk, "more": lessRisk,
	"man": {
		opts:   opts(opt(runs, "-P", "--pager", "-H", "--html"), opt(readsOut, "-l", "--local-file", "-C", "--config-file", "-M", "--manpath")),
		values: "PCMLmSestpREr", abbrev: true,
		deny:  []string{"man -P sh ls", "man --pager=sh ls", "man -l /outside/secret"},
		allow: []string{"man ls", "man 5 crontab"},
	},
	"xargs":   runnerRisk("aEeIiLlnPsd", 0),
	"env":     {operand: runsArgs, endAtOperand: true, assignOperands: true, values: "uCS", opts: opts(opt(runs, "-S", "--split-string"), opt(elsewhere, "-C", "--chdir")), abbrev: true, deny: []string{"env sh", "env A=1 sh", "env -S 'sh -c x'"}, allow: []string{"env"}},
	"timeout": runnerRisk("ks", 1), "nice": runnerRisk("n", 0), "nohup": runnerRisk("", 0), "sudo": runnerRisk("ugCDhpRrTU", 0),
	"doas": runnerRisk("uC", 0), "su": runnerRisk("cgGs", 0), "runuser": runnerRisk("cgGsu", 0), "pkexec": runnerRisk("", 0),
	"stdbuf": runnerRisk("ioe", 0), "setsid": runnerRisk("", 0), "chroot": runnerRisk("", 1), "watch": runnerRisk("nd", 0), "time": runnerRisk("fo", 0),
	"strace": runnerRisk("eoposSIuEa", 0), "ltrace": runnerRisk("eoposSIuEan", 0), "flock": runnerRisk("wEc", 1), "unshare": runnerRisk("", 0),
	"nsenter": runnerRisk("tSGwr", 0), "ionice": runnerRisk("cnp", 0), "taskset": runnerRisk("", 1), "chrt": runnerRisk("", 1),
	"parallel": runnerRisk("", 0), "script": runnerRisk("cEIOBTm", 0), "busybox": runnerRisk("", 0), "ssh": runnerRisk("bcDEeFIiJLlmOopQRSWw", 1),
	"command": runnerRisk("", 0), "builtin": runnerRisk("", 0), "exec": runnerRisk("a", 0), "eval": runnerRisk("", 0),
	"bash": interpreter("o", opt(runs, "-c", "-s", "-i")), "sh": interpreter("o", opt(runs, "-c", "-s", "-i")),
	"zsh": interpreter("o", opt(runs, "-c", "-s", "-i")), "dash": interpreter("o", opt(runs, "-c", "-s", "-i")),
	"ksh": interpreter("o", opt(runs, "-c", "-s", "-i")), "mksh": interpreter("o", opt(runs, "-c", "-s", "-i")),
	"fish": interpreter("", opt(runs, "-c", "--command")), "csh": interpreter("", opt(runs, "-c")), "tcsh": interpreter("", opt(runs, "-c")),
	"python2": interpreter("cmWXQ", opt(runs, "-c", "-m")),
	"deno":    interpreter("", nil), "bun": interpreter("", opt(runs, "-e", "--eval")),
	"perl": interpreter("eEIlMmx", opt(runs, "-e", "-E", "-M", "-m", "-x")), "ruby": interpreter("eErIC", opt(runs, "-e", "-r", "-I")),
	"php": interpreter("rdcf", opt(runs, "-r", "-d")), "lua": interpreter("el", opt(runs, "-e", "-l")), "tclsh": interpreter("", nil),
	"Rscript": interpreter("e", opt(runs, "-e")), "pwsh": interpreter("cf", opt(runs, "-c", "-Command")), "powershell": interpreter("cf", opt(runs, "-c", "-Command")),
	"osascript": interpreter("e", opt(runs, "-e")), "expect": interpreter("c", opt(runs, "-c")), "source": interpreter("", nil), ".": interpreter("", nil),
	"npx": {whole: runsRecipe}, "yarn": {whole: runsRecipe}, "pnpm": {whole: runsRecipe},
	"docker": {whole: runsRecipe}, "kubectl": {whole: runsRecipe},
	"rsync": {opts: opt(runs, "-e", "--rsh", "--rsync-path"), values: "eBfT", abbrev: true, deny: []string{"rsync -e sh a b"}},
	"vi":    {whole: "runs programs through shell escapes"}, "vim": {whole: "runs programs through shell escapes"},
	"nvim": {whole: "runs programs through shell escapes"}, "emacs": {whole: "runs programs through shell escapes"},
	"ed": {whole: "runs programs through shell escapes"}, "gdb": {whole: "runs programs through shell escapes"},
}

var lessRisk = &commandRisk{
	opts:   opts(opt(writes, "-o", "--log-file", "-O", "--LOG-FILE"), opt(runs, "-k", "--lesskey-file", "--lesskey-src", "--lesskey-content")),
	plus:   runs,
	values: "bhjkoOpPtTxyz#", abbrev: true,
	deny:  []string{"less +!sh a.txt", "less -o /tmp/x a.txt", "less --log-file=/tmp/x a.txt"},
	allow: []string{"less a.txt", "less -N a.txt"},
}
