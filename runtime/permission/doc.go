// Package permission holds allow-lists: which tools an agent is offered,
// and which of their calls may run. It fails closed: whatever cannot be
// judged is denied. Permissions narrow what an agent may ask for;
// isolation is the sandbox's job.
//
// # Entries
//
// An entry is Name or Name(pattern):
//
//	list, err := permission.Parse("Read", "Grep", "Bash(git:*)", "Read(/tmp/**)")
//
// Only the outer parentheses delimit the pattern, so Read(/data/report(1).csv)
// is the pattern /data/report(1).csv. Names are case-sensitive (read is not
// Read) and are the registry's normalised names: the registry strips a
// leading "functions." once, and this package never does (an entry spelt
// functions.Read is an error). A name-only entry allows every call of the
// tool, unless the same list also gives the tool patterns: Read beside
// Read(/tmp/**) means /tmp/** only (Lint reports the name-only entry).
// Every malformed entry is an error that names it and says what to write.
//
// # Subjects and kinds
//
// A tool that can be judged by one input field hands out a subject of a
// Kind: Command (a shell command line) or Path. Parse knows the kinds of
// the builtin tools (DefaultKinds: Bash is Command; Read, Write, Edit,
// Glob and Grep are Path) and validates their patterns by that kind; declare
// others with WithKind. The pattern of a tool whose kind is not declared is
// kept as written and judged at Decide by the kind of the subject the tool
// gives: a pattern that is not valid for that kind matches nothing.
//
// A tool that needs more implements its own rule: Request.Rule is asked
// once per pattern. When the tool declares a subject, the subject decides
// and the rule is not asked; the rule judges only tools that declare no
// subject. A tool whose value cannot be read (missing, mistyped, blank) is
// "cannot be judged", and that denies wherever patterns exist; so does a
// tool with patterns that gives neither subject nor rule.
//
// # COMMAND patterns
//
// A command line is read once, as bash reads it, with mvdan.cc/sh/v3/syntax:
// into simple commands, each its environment assignments and words after
// quote removal. Text in single quotes, and in double quotes without $ or
// backquotes, is literal, so git commit -m "fix A & B" is three words
// after git; ec'h'o is echo. A COMMAND pattern is read the same way and
// matches a simple command whose words equal its words, or, with a
// trailing ":*", begin with them: git:* matches "git" and "git status", not
// "gitk"; words are compared, not spaces. Assignments are words too, so
// "FOO=1 git status" does not match git:*: allow it with its own entry if
// it is wanted. The exception are assignments of plain values to a small
// fixed set of variables that load no code (GOOS, GOARCH, CGO_ENABLED,
// NODE_ENV, RUST_BACKTRACE, LC_ALL, LANG, TZ, NO_COLOR, CI): a pattern
// without assignments ignores them, so CGO_ENABLED=0 go build ./... matches
// go build:*; GOFLAGS, NODE_OPTIONS, PYTHONPATH and the rest still need an
// entry that names them.
//
// Refused under any COMMAND pattern: invalid UTF-8, control characters
// (tab, CR, NUL, ...; a newline outside quotes in strict mode), U+2028, U+2029 and
// Unicode format characters (bidirectional overrides and isolates,
// zero-width characters); $ and backquotes outside single quotes (but a $
// that starts no expansion, as in sed -n "1,/^$/p"); and what
// bash would expand: an unquoted * ? [ (but a glob among the files a
// program with a spec reads, such as ls src/*.go: relative, starting with
// a letter, digit, '_' or "./", without ".." or a dot segment, at an
// operand whose type repeats, so that every name it becomes is read
// alike), a brace expansion ({a,b}, {1..3};
// stash@{0} and @{u} are literal), a tilde at the start of a word or after
// an unquoted = or : (HEAD~1 is literal). Also refused: what the parser and
// bash may read differently: a comment holding a backslash (the parser
// continues it over a backslash-newline, bash ends it at the newline), a
// backslash-newline inside a word, a reserved word as a command name, and
// any line whose syntax tree does not account for every byte (what no word
// or comment covers must be a blank or an operator). A differential test
// runs allowed lines under the real bash and compares what it executes.
//
// Before it is parsed, a line must keep three bounds: at most
// MaxLineBytes (16 KiB) long, and at most MaxLineStructure bytes that open
// a level of nesting (( { [ and backquotes) and MaxLineOperators bytes that
// join or negate commands (& | ; !), each 1,024 and counted quoted or not.
// Beyond them the line is refused with a reason naming the bound: the
// parser recurses per level and per operator, and a Go stack overflow ends
// the process. Within them the judge's worst line costs a few milliseconds
// and about a megabyte (BenchmarkWorstLine).
//
// Strict mode (the default) allows one simple command: no operators,
// negation or background jobs, no newline outside quotes, and no
// redirections but those of the standard streams, each a word of its own:
// 2>&1, 1>&2, >&2, >/dev/null, 1>/dev/null, 2>/dev/null, &>/dev/null and
// </dev/null. A quoted argument may span lines, and so may the agents'
// here-document form "$(cat <<'EOF' ... EOF)" whose quoted delimiter makes
// its text literal: it is read as that text. A pattern is read in strict
// mode, so a pattern with an operator is a parse error rather than a
// pattern that never matches.
//
// # Programs the judge knows
//
// For the programs agents run every day (ls, cat, grep, rg, find, sed,
// awk, jq, sort, git, go, npm, node, python3 -m pytest, cargo, make, tar
// and some fifty more: see specs.go) the judge holds a positive spec: every
// option the program takes, how its value attaches (clusters such as
// -xvf, values attached or in the next argument, getopt_long's
// unique-prefix abbreviations, git's --no- negations, Go's flags, find's
// expression, tar's first cluster) and what each value and operand is: a
// literal, a path the program reads, a path it writes, a directory it
// works in, code it runs, a sed, awk or jq script, linker or compiler
// flags, a file of the project's code. A ":*" entry for such a program
// judges every argument after its own words by the spec:
//
//   - an option or subcommand the spec does not list is refused, and the
//     hint names it and the entry that would allow it (Bash(git diff
//     --foo:*)); a git alias is such a subcommand;
//   - code given on the command line (make --eval and its assignments,
//     cargo --config, go -toolexec, -exec and -args, git -c, sed -f, node
//     -e, python3 -c, npm run's arguments after "--", find -exec, rg --pre,
//     ...) is refused unless the entry names the option;
//   - a path it reads must lie in the workspace (Request.WorkDir, its
//     links followed) or be allowed by the list's Read patterns (or Read
//     without patterns); a path it writes must lie in the workspace, not
//     in a hidden file or directory (.git/config, .bashrc, .vscode), or be
//     allowed by Write's or Edit's; a directory it works in (tar -C,
//     unzip -d, git --work-tree) must lie in the workspace and, as a
//     written path, not be hidden, or be allowed by both; what a program
//     deletes (git rm, git mv's source, tar --remove-files, zip -m) is
//     judged as written; an archive, whose members' names are never
//     seen, is extracted (tar -x, unzip) only into one directory (-C,
//     -d) that is not, and does not hold, the workspace where its links
//     lead, and holds no link out of it to the workspace's top, a hidden
//     path or outside, unless the entry names -x or the archive; a glob
//     among the files it reads is expanded as bash would (from where the
//     command starts; * and ? skip leading dots; a glob that matches
//     nothing stays its word; a line whose globs become over 10,000
//     names, or read over 100,000 entries, is refused) and every
//     name is judged; an option that makes a walk follow the links it
//     meets (grep -R, rg -L, find -L and -follow, tar -h, du -L, tree -l,
//     ls -L with -R) is refused unless named, and the trees zip -r
//     without -y and diff without --no-dereference walk, following
//     links by default, may hold no link out of the workspace (unless
//     Read allows the file it leads to) unless the entry names -r; a
//     file of the project's code must lie in the
//     workspace; scripts are read for what runs or reaches files (sed e,
//     r, w; awk system(), pipes, getline, ARGV; jq import);
//   - relative paths are taken from the working directory, or from the
//     directory a leading cd moved into, and from every directory an
//     option moves the program into first (git, go, make and tar's -C,
//     git's --work-tree): each must allow them; without a working
//     directory a relative path that does not climb out with ".." is
//     inside and nothing else is;
//   - git's repository: --git-dir may name only the workspace's own .git;
//     git started below the workspace's top (by -C or a leading cd) is
//     refused when a directory from there up to the top holds a HEAD (a
//     bare repository, made by git init --bare or by writing files, whose
//     config may run programs), and, in a compound line, when another
//     command runs before it or beside it in a pipe, unless the entry
//     names -C; a repository operand (clone, fetch, pull, ls-remote,
//     remote add) that is a local path or a file:// URL is a path git
//     reads, another URL reaches the network, and a remote helper
//     (X::address) is refused.
//
// The entry's own words are the user's and are not judged; naming an
// option lifts its refusal as code, not the judging of its paths. A
// refusal's hint never echoes a path. What the project's own files run
// (a Makefile's recipes, the tests go test and cargo test build, npm
// scripts, git hooks) is the sandbox's to contain: the specs say so and
// Lint reports it for each entry.
//
// A program without a spec keeps the prefix meaning: any option and
// operand after the entry's words is allowed, and Lint says so. For
// runners and interpreters (env, xargs, timeout, sudo, bash, perl, npx,
// docker, ...) and a few other programs (less, man, rsync) a deny table
// (risky.go) refuses the options that run programs, in clusters and
// abbreviations, unless the entry names them, and Lint reports their ":*"
// entries as arbitrary execution.
//
// # Compound commands (opt-in)
//
// WithCompoundCommands allows a line of simple commands joined by &&, ||,
// ;, newlines and pipes (|, |&), with negation (!), subshells ( ) and
// groups { }, when every simple command is allowed on its own. Also
// allowed: redirections to or from /dev/null, duplications and closings of
// the descriptors 0, 1 and 2 (2>&1, >&2, <&-), and comments. Denied: command and process
// substitution, parameter and arithmetic expansion, ANSI-C and locale
// quoting ($'...', $"..."), assignments without a command, function
// declarations, if/for/while/case and other compound commands, background
// jobs, here-documents and here-strings, every other redirection, and the
// commands eval, source, ., exec, command, builtin, alias, unalias, shopt,
// set, trap, enable, hash, fc, bind and coproc. Builtins that change what
// the commands after them do are refused in a line of more than one
// command whatever the entries say: cd, pushd, popd, read, mapfile,
// readarray, getopts, unset, export, declare, typeset, local, readonly,
// umask, ulimit, shift and printf -v (so cd is allowed only alone on its
// line), with one exception: a leading "cd DIR &&" (a plain directory, no
// option) into a directory inside the request's working directory, as
// written (no "..") and where its links lead, needs no entry, and the rest
// of the line runs there (cd sub && go test ./...). It is off by default.
// The line is judged before any of it runs: a link an earlier command of
// the line makes (git apply p.diff && cat lnk/secret) is not seen, and
// only the sandbox contains what is read through it.
//
// # PATH patterns
//
// A PATH pattern is an absolute, clean github.com/bmatcuk/doublestar/v4
// glob: * stays within one segment, ** crosses segments (and /tmp/**
// matches /tmp itself). A subject is made absolute against Request.WorkDir
// (a relative path without a working directory cannot be judged), must be
// free of NUL and other control characters, backslashes and Unicode format
// characters, and is cleaned lexically: /tmp/../etc/passwd is /etc/passwd;
// trailing slashes, // and . segments go. Look-alikes such as the fullwidth
// solidus (U+FF0F) are ordinary characters in a name, as they are to the
// file system.
//
// Where the path or one of its parents exists, the symlink-resolved path
// is judged too, and the call is allowed only when both the lexical and the
// resolved path match: /allowed/link -> /secrets does not pass
// Read(/allowed/**). The resolution follows the kernel: ".." after a link
// applies to the link's target. A pattern whose own directory is reached
// through a link above the workspace (macOS's /tmp -> /private/tmp, a home
// on another disk) allows the files really there; a link inside the
// workspace (Request.WorkDir, or PathFilter.In's directory) widens
// nothing, so that with Write(/ws/src/**) a repository shipping
// src -> .git cannot have .git/config rewritten. Without a workspace the
// pattern is widened through any link. What remains open is the time between this check and the tool's
// open: a link swapped in between is not seen here. File tools close that
// gap by opening through os.Root confined to their root, and should open
// the path AbsPath returns.
//
// # Decisions
//
// Decide returns a Decision. A denial's Reason is a sentence for the model
// that names the tool and the kind of subject and nothing else (no
// pattern, no other tool), from the Reason* formats with, when the model
// can fix the call, one of the Hint* sentences:
//
//	Tool 'Write' is not allowed.
//	Tool 'Bash' is not allowed to run this command.
//	Tool 'Bash' is not allowed to run this command. Run one simple command, without shell operators, expansions or control characters.
//	Tool 'Read' is not allowed to access this path. Give an absolute path.
//	Tool 'Fetch' is not allowed to make this call.
//
// A tool that is not on the list and a tool that does not exist get the
// same sentence. Decision.Detail says why for the operator's log.
//
// # Runs inside runs, ceilings and offers
//
// Intersect binds a fork, sub-agent or skill by both its caller's list and
// its own: tools in both, every list's patterns kept (a call must satisfy
// each); an empty intersection is an error. The zero List is the identity.
// A side-effect ceiling (WithCeiling, List.Capped, a SideEffect) removes tools
// above it from the offer and denies their calls; Request.Level carries
// the tool's level. Offered computes what a run shows the model from
// Descriptors of the available tools, with warnings for the log when names
// are unknown, tools are above the ceiling, or deferred tools are allowed
// without ToolSearch.
//
// # Front matter, examples and lint
//
// Package frontmatter (runtime/permission/frontmatter) reads the
// allowed-tools key of a markdown file's YAML front matter (a list, or one
// comma-separated string); a key spelt otherwise (allowedTools,
// allowed_tools, tools, ...) is an error. Entries
// may carry examples they must allow and deny (Entry.MustAllow,
// Entry.MustDeny; must-allow and must-deny in front matter), verified when
// the list is built. Lint reports entries that allow arbitrary execution in
// practice or reach further through their options, patterns that can
// never match, and redundant entries.
package permission
