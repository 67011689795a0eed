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
// A COMMAND pattern is a command line matched exactly, except a trailing
// ":*", which matches the prefix alone or followed by a space and anything:
// git:* matches "git" and "git status", not "gitk". Spaces around the
// candidate are ignored. Under any COMMAND pattern a candidate is refused
// when it contains, anywhere (quoted or not), ; | & ` $ > < ( ), a newline,
// CR, NUL, a tab or any other control character, U+2028, U+2029, a Unicode
// format character (bidirectional overrides and isolates, zero-width
// characters) or invalid UTF-8; and when it contains, outside quotes,
// what the shell would expand: * ? [ { } ~. A trailing backslash and an
// unbalanced quote are refused (a backslash-newline is refused as a newline).
// Environment assignments are part of the command text, so
// "FOO=1 git status" does not match git:*: allow it with its own entry if
// it is wanted. Patterns follow the same rules, so a pattern with a
// metacharacter is a parse error rather than a pattern that never matches.
//
// # Compound commands (opt-in)
//
// WithCompoundCommands parses a command line with mvdan.cc/sh/v3/syntax
// and allows it when every simple command in it, rebuilt from its words
// joined by single spaces, is allowed by the COMMAND rules above: "git status
// && git diff" passes Bash(git:*). Lists (&&, ||, ;, newline), pipes (|,
// |&), negation (!), subshells ( ) and groups { } are seen through.
// Denied: command and process substitution, parameter and arithmetic
// expansion, ANSI-C and locale quoting ($'...', $"..."), environment assignments, function
// declarations, declarations (export, local, ...), if/for/while/case and
// other compound commands, background jobs, here-documents and
// here-strings, the commands eval, source, ., exec, command, builtin,
// alias, shopt, set, trap, enable, hash, fc, bind, coproc, and every
// redirection except to or from /dev/null and duplications of numbered
// descriptors (2>&1, >&2, <&-). It is off by default.
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
// applies to the link's target. Write patterns with resolved directories
// (Lint reports a pattern whose fixed directory is reached through a
// link). What remains open is the time between this check and the tool's
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
// A side-effect ceiling (WithCeiling, List.Capped, Level) removes tools
// above it from the offer and denies their calls; Request.Level carries
// the tool's level. Offered computes what a run shows the model from
// Descriptors of the available tools, with warnings for the log when names
// are unknown, tools are above the ceiling, or deferred tools are allowed
// without ToolSearch.
//
// # Front matter, examples and lint
//
// ParseFrontMatter reads the allowed-tools key of a markdown file's YAML
// front matter (a list, or one comma-separated string); a key spelt
// otherwise (allowedTools, allowed_tools, tools, ...) is an error. Entries
// may carry examples they must allow and deny (Entry.MustAllow,
// Entry.MustDeny; must-allow and must-deny in front matter), verified when
// the list is built. Lint reports entries that allow arbitrary execution in
// practice, patterns that can never match, and redundant entries.
package permission
