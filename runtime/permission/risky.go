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

var gitDiffOpts = opts(opt(writes, "--output"), opt(runs, "--ext-diff"))

// risks is the command table, by command name (the base name of the first
// word).
var risks = map[string]*commandRisk{
	"git": {
		note: "runs programs through -c options, aliases and hooks",
		opts: opts(opt(configures, "-c", "--config-env"), opt(runs, "--exec-path"),
			opt(elsewhere, "-C", "--git-dir", "--work-tree")),
		values:     "cC",
		longValues: []string{"--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"},
		abbrev:     true,
		subs: map[string]*commandRisk{
			"config": {whole: configures, deny: []string{"git config core.pager sh"}},
			"grep": {opts: opts(opt(runs, "-O", "--open-files-in-pager"), opt(readsOut, "--no-index")),
				values: "efABCm", abbrev: true,
				deny:  []string{"git grep --no-index -Obash -e x -- evil.sh", "git grep -O x", "git grep --open-files=sh x", "git grep -iO x"},
				allow: []string{"git grep -n TODO", "git grep -e x -- a.go"}},
			"diff": {opts: opts(gitDiffOpts, opt(readsOut, "--no-index")), abbrev: true, pathOperands: readsOut,
				deny:  []string{"git diff --no-index /outside/secret /dev/null", "git diff --output=/tmp/x", "git diff --outp=x", "git diff --ext-diff", "git diff /outside/secret /dev/null", "git diff ../other/secret a.go"},
				allow: []string{"git diff HEAD~1", "git diff --stat", "git diff -- a.go"}},
			"log":         {opts: gitDiffOpts, abbrev: true, deny: []string{"git log --output=/tmp/x", "git log --output /tmp/x"}, allow: []string{"git log @{u}..HEAD", "git log --oneline -n 3"}},
			"show":        {opts: gitDiffOpts, abbrev: true, deny: []string{"git show --output=x"}, allow: []string{"git show HEAD~2", "git show stash@{0}"}},
			"whatchanged": {opts: gitDiffOpts, abbrev: true},
			"range-diff":  {opts: gitDiffOpts, abbrev: true},
			"format-patch": {opts: opts(gitDiffOpts, opt(writes, "-o", "--output-directory")), values: "ov", abbrev: true,
				deny: []string{"git format-patch -o /tmp/x HEAD~1"}},
			"blame":      {opts: opt(readsOut, "--contents", "-S"), values: "LSCM", abbrev: true, deny: []string{"git blame --contents /outside/secret a.go", "git blame -S /outside/secret a.go"}, allow: []string{"git blame -L 1,5 a.go"}},
			"checkout":   {opts: opt(readsOut, "--pathspec-from-file"), abbrev: true, deny: []string{"git checkout --pathspec-from-file=/outside/secret"}, allow: []string{"git checkout main"}},
			"add":        {opts: opt(readsOut, "--pathspec-from-file"), abbrev: true, deny: []string{"git add --pathspec-from-file=/outside/secret"}, allow: []string{"git add a.go"}},
			"restore":    {opts: opt(readsOut, "--pathspec-from-file"), abbrev: true},
			"reset":      {opts: opt(readsOut, "--pathspec-from-file"), abbrev: true},
			"rm":         {opts: opt(readsOut, "--pathspec-from-file"), abbrev: true},
			"stash":      {opts: opt(readsOut, "--pathspec-from-file"), abbrev: true, inherit: true, deny: []string{"git stash push --pathspec-from-file=/outside/secret"}, allow: []string{"git stash", "git stash pop"}},
			"tag":        {opts: opt(readsOut, "-F", "--file"), values: "muF", abbrev: true, deny: []string{"git tag -a t -F /outside/secret", "git tag -aF/outside/secret t"}, allow: []string{"git tag -a v1 -m release"}},
			"bundle":     {subs: map[string]*commandRisk{"create": {whole: writes}}, deny: []string{"git bundle create /outside/x HEAD"}, allow: []string{"git bundle verify a.bundle"}},
			"worktree":   {subs: map[string]*commandRisk{"add": {whole: writes}}, deny: []string{"git worktree add /outside/x"}, allow: []string{"git worktree list"}},
			"fetch-pack": {opts: opt(runs, "--upload-pack", "--exec"), abbrev: true, deny: []string{"git fetch-pack --upload-pack=sh x"}},
			"send-pack":  {opts: opt(runs, "--receive-pack", "--exec"), abbrev: true, deny: []string{"git send-pack --receive-pack=sh x"}},
			"annotate":   {opts: opt(readsOut, "--contents"), abbrev: true},
			"rebase":     {opts: opt(runs, "-x", "--exec"), values: "xsX", abbrev: true, deny: []string{"git rebase -x sh HEAD~2", "git rebase --exec=sh main"}, allow: []string{"git rebase main"}},
			"bisect":     {subs: map[string]*commandRisk{"run": {whole: runs}}, deny: []string{"git bisect run sh"}, allow: []string{"git bisect good"}},
			"submodule": {subs: map[string]*commandRisk{"foreach": {whole: runs}}, deny: []string{"git submodule foreach sh"},
				allow: []string{"git submodule status"}},
			"fetch":     {opts: opt(runs, "--upload-pack"), abbrev: true, deny: []string{"git fetch --upload-pack=sh origin"}, allow: []string{"git fetch origin"}},
			"pull":      {opts: opt(runs, "--upload-pack"), abbrev: true},
			"ls-remote": {opts: opt(runs, "--upload-pack", "-u"), abbrev: true},
			"clone": {opts: opts(opt(runs, "--upload-pack", "-u"), opt(configures, "-c", "--config", "--template")), values: "cobju", abbrev: true,
				deny: []string{"git clone -u sh x", "git clone --template=/tmp/t x"}},
			"init":          {opts: opt(configures, "--template", "--separate-git-dir"), abbrev: true, operand: writes, deny: []string{"git init /outside/x"}, allow: []string{"git init"}},
			"push":          {opts: opt(runs, "--receive-pack", "--exec"), abbrev: true, deny: []string{"git push --receive-pack=sh origin"}},
			"archive":       {opts: opts(opt(runs, "--remote", "--exec"), opt(writes, "-o", "--output")), values: "o", abbrev: true},
			"commit":        {opts: opt(readsOut, "-F", "--file", "-t", "--template", "--pathspec-from-file"), values: "mFCct", abbrev: true, deny: []string{"git commit -F /outside/secret"}, allow: []string{`git commit -m "feat(parser): x"`, `git commit -m "fix A & B"`}},
			"apply":         {opts: opt(writes, "--unsafe-paths"), abbrev: true},
			"help":          {opts: opt(runs, "-w", "--web"), abbrev: true},
			"difftool":      {whole: runs},
			"mergetool":     {whole: runs},
			"filter-branch": {whole: runs},
			"daemon":        {whole: runs},
			"instaweb":      {whole: runs},
			"send-email":    {whole: runs},
			"credential":    {whole: runs},
			"web--browse":   {whole: runs},
		},
		deny: []string{"git -c core.pager=sh log", "git --exec-path=/tmp status", "git -C /outside log", "git --git-dir=/outside/.git log",
			"git config alias.x !sh", "git grep -Obash x", "git diff --no-index /outside/secret /dev/null"},
		allow: []string{"git status", "git diff HEAD~1", "git log @{u}..HEAD", "git stash show stash@{0}"},
	},
	"sort": {
		opts:   opts(opt(runs, "--compress-program"), opt(writes, "-o", "--output", "-T", "--temporary-directory")),
		values: "kotST", abbrev: true,
		deny:  []string{"sort --compress-program=bash data.txt", "sort --compress-prog=bash data.txt", "sort --compress-program bash data.txt", "sort -o /tmp/x data.txt", "sort -ro/tmp/x data.txt"},
		allow: []string{"sort data.txt", "sort -t, -k2 -n data.txt", "sort -k2o data.txt", "sort -- --compress-program=bash"},
	},
	"date": {
		opts:   opts(opt(readsOut, "-f", "--file"), opt("sets the clock", "-s", "--set")),
		values: "dfrsI", abbrev: true,
		deny:  []string{"date -f /outside/secret", "date --file=/outside/secret", "date --fi /outside/secret"},
		allow: []string{"date", "date -u +%s", "date -d yesterday"},
	},
	"npm": {
		opts:    npmOpts,
		abbrev:  true,
		inherit: true,
		subs: map[string]*commandRisk{
			"exec": {whole: runs}, "x": {whole: runs}, "explore": {whole: runs}, "init": {whole: runs}, "create": {whole: runs},
			"run": {opts: npmOpts, abbrev: true, afterDashDash: npmPassesOn,
				deny:  []string{"npm run test --prefix notes", "npm run test --node-options=--require=./evil.js", "npm run test --pref=notes", "npm run test -- '--import=data:text/javascript,x'"},
				allow: []string{"npm run test"}},
			"test": {opts: npmOpts, abbrev: true, afterDashDash: npmPassesOn, deny: []string{"npm test -- --require=./evil.js"}, allow: []string{"npm test"}},
		},
		deny:  []string{"npm exec evil", "npm run test --prefix notes"},
		allow: []string{"npm run test", "npm test"},
	},
	"go": {
		singleDash: true,
		subs: map[string]*commandRisk{
			"test": {singleDash: true, longValues: goValues,
				opts: opts(goBuildOpts, opt(runs, "-exec", "-vettool", "-args"),
					opt(writes, "-o", "-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-outputdir",
						"-test.coverprofile", "-test.cpuprofile", "-test.memprofile", "-test.blockprofile", "-test.mutexprofile", "-test.trace", "-test.outputdir")),
				deny:  []string{"go test -exec=sh ./...", "go test -toolexec sh ./...", "go test --exec sh ./...", "go test -coverprofile=/tmp/c ./...", "go test -gcflags=-cpuprofile=/outside/x ./...", "go test ./... -args -test.testlogfile=/outside/x"},
				allow: []string{"go test ./...", "go test -run TestX -count=1 ./pkg"}},
			"build": {singleDash: true, longValues: goValues,
				opts: opts(goBuildOpts, opt(writes, "-o")),
				deny: []string{"go build -toolexec=sh ./..."}, allow: []string{"go build ./..."}},
			"vet": {singleDash: true, longValues: goValues, opts: opts(goBuildOpts, opt(runs, "-vettool")),
				deny: []string{"go vet -vettool=sh ./...", "go vet -toolexec=sh ./..."}, allow: []string{"go vet ./..."}},
			"install":  {singleDash: true, longValues: goValues, opts: goBuildOpts, deny: []string{"go install -toolexec=sh ./..."}, allow: []string{"go install ./cmd/x"}},
			"list":     {singleDash: true, longValues: goValues, opts: goBuildOpts, allow: []string{"go list ./..."}},
			"env":      {singleDash: true, opts: opt(configures, "-w", "-u"), deny: []string{"go env -w GOFLAGS=-toolexec=sh"}, allow: []string{"go env GOPATH"}},
			"run":      {whole: runs},
			"generate": {whole: runs},
			"tool":     {whole: runs},
		},
		deny:  []string{"go run ./evil", "go test -exec=sh ./..."},
		allow: []string{"go version", "go test ./..."},
	},
	"rg": {
		opts:  opt(runs, "--pre", "--hostname-bin"),
		deny:  []string{"rg --pre=bash x", "rg --pre bash x", "rg --hostname-bin=sh x"},
		allow: []string{"rg -n TODO", "rg --pre-glob '*.gz' x"},
	},
	"find": {
		singleDash: true, noDashDash: true,
		opts: opts(opt(runs, "-exec", "-execdir", "-ok", "-okdir"), opt(deletes, "-delete"),
			opt(writes, "-fprint", "-fprint0", "-fprintf", "-fls")),
		deny:  []string{"find . -exec rm {} ;", "find . -execdir sh -c x ;", "find . -ok rm {} ;", "find . -delete", "find . -fprint /tmp/x", "find -- . -delete"},
		allow: []string{"find . -name x.go", "find . -type f -newer a.go"},
	},
	"tar": {
		opts: opts(opt(runs, "-I", "--use-compress-program", "--to-command", "--checkpoint-action", "-F", "--info-script",
			"--new-volume-script", "--rsh-command", "--rmt-command"), opt(writes, "-P", "--absolute-names"), opt(elsewhere, "-C", "--directory")),
		values: "fbCFgHIKLNTVX", abbrev: true, firstCluster: true,
		deny:  []string{"tar --to-command=sh -xf a.tar", "tar -I sh -cf a.tar x", "tar --use-compress-program=sh -cf a.tar x", "tar xIf sh a.tar", "tar -xvIf sh a.tar", "tar --use-comp=sh -cf a.tar x", "tar -xf a.tar -C /outside"},
		allow: []string{"tar -tf a.tar", "tar -xvf a.tar", "tar tzf a.tar.gz"},
	},
	"sed": {
		opts:   opts(opt(writes, "-i", "--in-place"), opt(runs, "-f", "--file")),
		values: "efl", abbrev: true, script: sedScripts,
		deny:  []string{"sed -i s/a/b/ x.txt", "sed -ni p x.txt", "sed --in-place s/a/b/ x.txt", "sed s/a/b/e x.txt", "sed 1e x.txt", "sed 'w /tmp/x' a", "sed -e p -e 'r /outside/secret' a", "sed s/a/b/w/tmp/x a", "sed -f evil.sed a"},
		allow: []string{"sed -n 1,5p x.txt", "sed s/hello/world/g x.txt", "sed -e 's/[0-9]+/N/g' -e /^#/d x.txt", "sed -E 's|a|b|2' x.txt", "sed '/x/{s/a/b/;p}' x.txt"},
	},
	"awk":  awkRisk,
	"gawk": awkRisk, "mawk": awkRisk, "nawk": awkRisk,
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
	"python": interpreter("cmWXQ", opt(runs, "-c", "-m")), "python2": interpreter("cmWXQ", opt(runs, "-c", "-m")),
	"python3": interpreter("cmWX", opt(runs, "-c", "-m")),
	"node":    interpreter("epr", opt(runs, "-e", "--eval", "-p", "--print", "-r", "--require", "--import", "--loader", "--experimental-loader")),
	"deno":    interpreter("", nil), "bun": interpreter("", opt(runs, "-e", "--eval")),
	"perl": interpreter("eEIlMmx", opt(runs, "-e", "-E", "-M", "-m", "-x")), "ruby": interpreter("eErIC", opt(runs, "-e", "-r", "-I")),
	"php": interpreter("rdcf", opt(runs, "-r", "-d")), "lua": interpreter("el", opt(runs, "-e", "-l")), "tclsh": interpreter("", nil),
	"Rscript": interpreter("e", opt(runs, "-e")), "pwsh": interpreter("cf", opt(runs, "-c", "-Command")), "powershell": interpreter("cf", opt(runs, "-c", "-Command")),
	"osascript": interpreter("e", opt(runs, "-e")), "expect": interpreter("c", opt(runs, "-c")), "source": interpreter("", nil), ".": interpreter("", nil),
	"npx": {whole: runsRecipe}, "yarn": {whole: runsRecipe}, "pnpm": {whole: runsRecipe},
	"docker": {whole: runsRecipe}, "kubectl": {whole: runsRecipe},
	"make": {
		note: runsRecipe,
		opts: opts(opt(runs, "--eval", "-E", "-f", "--file", "--makefile", "-I", "--include-dir"), opt(elsewhere, "-C", "--directory"),
			opt(writes, "-o", "--old-file", "-W", "--what-if", "--new-file", "--assume-new", "--assume-old")),
		values: "CfIjlEoW", longValues: []string{"--eval", "--file", "--makefile", "--include-dir", "--directory", "--jobs", "--load-average", "--old-file", "--what-if"},
		abbrev: true, assignRuns: "assigns a make variable, whose value may run a program ($(shell ...))",
		deny:  []string{"make test --eval='$(shell touch x)'", "make test 'X:=$(shell touch x)'", "make test X=1", "make -f /outside/Makefile test", "make test --ev=x"},
		allow: []string{"make test", "make -j4 test", "make -k build test"},
	},
	"cargo": {
		note: runsRecipe, inherit: true,
		opts:   opts(opt(configures, "--config", "-Z"), opt(elsewhere, "--manifest-path", "-C"), opt(writes, "--target-dir", "--artifact-dir", "--out-dir")),
		values: "pjZCF", longValues: []string{"--config", "--manifest-path", "--target-dir", "--package", "--jobs", "--features", "--bin", "--test", "--example", "--bench", "--target", "--profile"},
		abbrev: true,
		deny:   []string{"cargo test --config 'target.x.runner=[\"sh\"]'", "cargo --config x=1 test", "cargo test --target-dir=/outside/x"},
		allow:  []string{"cargo test", "cargo test -p core -- --nocapture", "cargo build --release"},
	},
	"rsync": {opts: opt(runs, "-e", "--rsh", "--rsync-path"), values: "eBfT", abbrev: true, deny: []string{"rsync -e sh a b"}},
	"vi":    {whole: "runs programs through shell escapes"}, "vim": {whole: "runs programs through shell escapes"},
	"nvim": {whole: "runs programs through shell escapes"}, "emacs": {whole: "runs programs through shell escapes"},
	"ed": {whole: "runs programs through shell escapes"}, "gdb": {whole: "runs programs through shell escapes"},
}

// npmPassesOn is what npm run does with the arguments after "--": they go
// to the script's command line, where an interpreter reads them as options
// (node --import=data:... runs code).
const npmPassesOn = "passes arguments to the script's interpreter, whose options may run code"

// goBuildOpts are the build flags every go subcommand that builds takes.
var goBuildOpts = opts(opt(runs, "-toolexec", "-ldflags", "-gcflags", "-asmflags"), opt(elsewhere, "-C", "-overlay", "-modfile", "-pgo"))

var npmOpts = opts(opt(elsewhere, "--prefix", "-C", "--workspace", "-w", "--workspaces", "-ws"),
	opt(runs, "--node-options", "--script-shell"), opt(configures, "--userconfig", "--globalconfig"))

var goValues = []string{"-exec", "-toolexec", "-vettool", "-ldflags", "-C", "-overlay", "-modfile", "-pgo", "-o", "-run", "-count", "-timeout", "-tags", "-p", "-parallel", "-bench", "-benchtime", "-cpu", "-coverpkg", "-covermode", "-gcflags", "-asmflags", "-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-outputdir"}

var awkRisk = &commandRisk{
	opts:   opts(opt(runs, "-f", "--file", "-i", "--include", "-l", "--load", "-E", "--exec", "-W")),
	values: "FvfeilEW", abbrev: true, script: awkScripts,
	deny: []string{`awk 'BEGIN{system("sh")}'`, `awk '{print | "sh"}' a`, `awk '{print > "/tmp/x"}' a`, `awk 'BEGIN{while ((getline l < "/outside/secret") > 0) print l}'`,
		"awk -f evil.awk a", `awk '@load "x"'`, "mawk -W exec evil.awk a"},
	allow: []string{`awk '{print $1}' a`, `awk -F, '$3 > 100 {print $1}' a`, `awk -v n=3 'NR < n' a`},
}

var lessRisk = &commandRisk{
	opts:   opts(opt(writes, "-o", "--log-file", "-O", "--LOG-FILE"), opt(runs, "-k", "--lesskey-file", "--lesskey-src", "--lesskey-content")),
	plus:   runs,
	values: "bhjkoOpPtTxyz#", abbrev: true,
	deny:  []string{"less +!sh a.txt", "less -o /tmp/x a.txt", "less --log-file=/tmp/x a.txt"},
	allow: []string{"less a.txt", "less -N a.txt"},
}
