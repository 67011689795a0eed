package permission

// The spec of git: its global options, the porcelain and the plumbing
// agents use. Every subcommand reads its options with git's
// parse-options: clusters, unique-prefix abbreviations of long options,
// --no-NAME negations. Operands (revisions and pathspecs alike) are read
// paths: a revision is a name that stays inside the working directory,
// and a path outside it is refused (git diff switches to --no-index by
// itself for one). A subcommand the spec does not list, an alias among
// them, is refused unless the entry names it. What git runs that no
// argument shows (hooks, the repository's configured filters and
// fsmonitor) is the project's code: the sandbox's job. git rm's operands
// and both of git mv's are written: they are deleted, moved or made.
// A repository operand (clone, fetch, pull, ls-remote, remote add) is
// read when it is a local path or a file:// URL. --git-dir may name only
// the workspace's own .git, and git started below the workspace's top
// must find no other repository on its way up (specEnv.gitStart).

// gitPathspecFile is --pathspec-from-file: a file of paths, read.
const gitPathspecFile = " --pathspec-from-file=r --pathspec-file-nul"

// gitSub makes the spec of a git subcommand from its options (and option
// groups shared with others); an []argType among the rest gives its
// operands' types (read paths by default), an int the most operands.
func gitSub(opts string, more ...any) *spec {
	s := &spec{abbrev: true, negate: true, numeric: true, operands: ops(tRead), opts: o(opts)}
	for _, m := range more {
		switch v := m.(type) {
		case []*optSpec:
			s.opts = append(s.opts, v...)
		case []argType:
			s.operands = v
		case int:
			s.maxOperands = v
		}
	}
	return s
}

// hooks notes that a git subcommand runs the repository's hooks.
func hooks(s *spec) *spec {
	return withProject(s, "runs the repository's hooks")
}

// gitSpecs builds this file's specs, by program name (see specTable).
func gitSpecs() map[string]*spec {
	// gitDiffFlags are the options of the diff family (diff, log, show,
	// format-patch, stash show, ...).
	gitDiffFlags := o("-p|-u|--patch -s|--no-patch -U|--unified= --output=w --output-indicator-new= --output-indicator-old= " +
		"--output-indicator-context= --raw --patch-with-raw -t --indent-heuristic --no-indent-heuristic --minimal --patience " +
		"--histogram --anchored= --diff-algorithm= --stat=? --stat-width= --stat-name-width= --stat-graph-width= --stat-count= " +
		"--compact-summary --numstat --shortstat -X|--dirstat=? --cumulative --dirstat-by-file=? --summary --patch-with-stat -z " +
		"--name-only --name-status --submodule=? --color=? --no-color --color-moved=? --no-color-moved --color-moved-ws= " +
		"--no-color-moved-ws --word-diff=? --word-diff-regex= --color-words=? --no-renames --rename-empty --no-rename-empty --check " +
		"--ws-error-highlight= --full-index --binary --abbrev=? -B|--break-rewrites=? -M|--find-renames=? -C|--find-copies=? " +
		"--find-copies-harder -D|--irreversible-delete -l= --diff-filter= -S= -G= --find-object= --pickaxe-all --pickaxe-regex " +
		"-O=r --skip-to= --rotate-to= -R --relative=? --no-relative -a|--text --ignore-cr-at-eol --ignore-space-at-eol " +
		"-b|--ignore-space-change -w|--ignore-all-space --ignore-blank-lines -I|--ignore-matching-lines= --inter-hunk-context= " +
		"-W|--function-context --exit-code --quiet --no-ext-diff --textconv --no-textconv --ignore-submodules=? --src-prefix= " +
		"--dst-prefix= --no-prefix --default-prefix --line-prefix= --ita-invisible-in-index --ita-visible-in-index --cached " +
		"--staged --merge-base --no-index -1|--base -2|--ours -3|--theirs -0 -c --cc --combined-all-paths -m --diff-merges= " +
		"--no-diff-merges --remerge-diff --dd --ext-diff!")
	// gitRevFlags are the options of the revision walk (log, shortlog, rev-list, ...).
	gitRevFlags := o("-n|--max-count= --skip= --since|--after= --since-as-filter= --until|--before= --author= --committer= " +
		"--grep-reflog= --grep= --all-match --invert-grep -i|--regexp-ignore-case --basic-regexp -E|--extended-regexp " +
		"-F|--fixed-strings -P|--perl-regexp --remove-empty --merges --no-merges --min-parents= --max-parents= --no-min-parents " +
		"--no-max-parents --first-parent --exclude-first-parent-only --not --all --branches=? --tags=? --remotes=? --glob= " +
		"--exclude= --exclude-hidden= --reflog --alternate-refs --single-worktree --ignore-missing --bisect --cherry-mark " +
		"--cherry-pick --left-only --right-only --cherry -g|--walk-reflogs --merge --boundary --simplify-by-decoration " +
		"--show-pulls --full-history --dense --sparse --simplify-merges --ancestry-path=? --date-order --author-date-order " +
		"--topo-order --reverse --no-walk=? --do-walk --pretty=? --format= --abbrev-commit --no-abbrev-commit --oneline " +
		"--encoding= --expand-tabs=? --no-expand-tabs --notes=? --no-notes --show-notes=? --show-signature --relative-date " +
		"--date= --parents --children --left-right --graph --show-linear-break=? --decorate=? --no-decorate --decorate-refs= " +
		"--decorate-refs-exclude= --clear-decorations --source --use-mailmap --no-use-mailmap --mailmap --no-mailmap --full-diff " +
		"--log-size -L= --follow --no-follow --count --timestamp --header --objects --objects-edge --no-object-names --in-commit-order " +
		"--unpacked --max-age= --min-age= --show-origin --stdin")
	gitSpec := &spec{
		opts: does(does(o("-C=d -c=x --config-env=x --exec-path=?x --git-dir=gitdir --work-tree=d --namespace= --bare --no-pager -p|--paginate -P "+
			"--no-replace-objects --no-lazy-fetch --literal-pathspecs --glob-pathspecs --noglob-pathspecs --icase-pathspecs "+
			"--no-optional-locks --no-advice -v|--version -h|--help --html-path --man-path --info-path"),
			"sets configuration, which may name programs to run", "-c", "--config-env"),
			"runs git's programs from another directory", "--exec-path"),
		subs: map[string]*spec{
			"status": gitSub("-s|--short -b|--branch --show-stash --porcelain=? --long -v|--verbose -u|--untracked-files=? " +
				"--ignore-submodules=? --ignored=? -z --column=? --no-column --ahead-behind --no-ahead-behind --renames --no-renames --find-renames=?"),
			"diff":         gitSub("", gitDiffFlags),
			"log":          gitSub("", gitDiffFlags, gitRevFlags),
			"show":         gitSub("", gitDiffFlags, gitRevFlags),
			"whatchanged":  gitSub("", gitDiffFlags, gitRevFlags),
			"shortlog":     gitSub("-n|--numbered -s|--summary -e|--email -c|--committer --group= -w=? --format=", gitRevFlags),
			"rev-list":     gitSub("--quiet --disk-usage=? --max-count= --objects --no-filter --filter= --missing=", gitRevFlags),
			"range-diff":   gitSub("--creation-factor= --no-dual-color --left-only --right-only", gitDiffFlags),
			"format-patch": gitSub("-o|--output-directory=w --stdout -n|--numbered -N|--no-numbered --start-number= --numbered-files -k|--keep-subject --cover-letter --no-cover-letter -v|--reroll-count= --subject-prefix= --rfc=? --to= --cc= --from=? --base= --signature= --no-signature --signature-file=r --suffix= -q|--quiet --zero-commit --progress --thread=? --no-thread --in-reply-to= --attach=? --inline=? --no-attach --add-header= --interdiff= --range-diff= --creation-factor= --signoff -s", gitDiffFlags, gitRevFlags),
			"add": gitSub("-n|--dry-run -v|--verbose -f|--force -i|--interactive -p|--patch -e|--edit -u|--update -A|--all --no-ignore-removal " +
				"--no-all --ignore-removal -N|--intent-to-add --refresh --ignore-errors --ignore-missing --sparse --chmod= --renormalize" + gitPathspecFile),
			"commit": hooks(gitSub("-a|--all -p|--patch -C|--reuse-message= -c|--reedit-message= --fixup= --squash= --reset-author --short --branch " +
				"--porcelain --long -z|--null -F|--file=r --author= --date= -m|--message= -t|--template=r -s|--signoff --no-signoff --trailer= " +
				"-n|--no-verify --verify --allow-empty --allow-empty-message --cleanup= -e|--edit --no-edit --amend --no-post-rewrite " +
				"-i|--include -o|--only -u|--untracked-files=? -v|--verbose -q|--quiet --dry-run --status --no-status -S|--gpg-sign=? --no-gpg-sign" + gitPathspecFile)),
			"branch": gitSub("-d|--delete -D -f|--force -m|--move -M -c|--copy -C --color=? --no-color -i|--ignore-case --omit-empty --column=? --no-column " +
				"-r|--remotes -a|--all -l|--list --show-current -v|--verbose -vv -q|--quiet --abbrev= --no-abbrev -t|--track=? --no-track " +
				"-u|--set-upstream-to= --unset-upstream --edit-description --contains=? --no-contains=? --merged=? --no-merged=? --sort= " +
				"--points-at= --format= --create-reflog --recurse-submodules"),
			"checkout": gitSub("-q|--quiet --progress --no-progress -f|--force --ours --theirs -b= -B= -t|--track=? --no-track --guess --no-guess " +
				"-l -d|--detach --orphan= --ignore-skip-worktree-bits -m|--merge --conflict= -p|--patch --ignore-other-worktrees " +
				"--overwrite-ignore --no-overwrite-ignore --recurse-submodules --no-recurse-submodules --overlay --no-overlay" + gitPathspecFile),
			"switch": gitSub("-c|--create= -C|--force-create= -d|--detach --guess --no-guess -f|--force|--discard-changes -m|--merge --conflict= " +
				"-q|--quiet --progress --no-progress -t|--track=? --no-track --orphan= --ignore-other-worktrees --recurse-submodules --no-recurse-submodules"),
			"restore": gitSub("-s|--source= -p|--patch -W|--worktree -S|--staged -q|--quiet --progress --no-progress --ours --theirs -m|--merge " +
				"--conflict= --ignore-unmerged --ignore-skip-worktree-bits --recurse-submodules --no-recurse-submodules --overlay --no-overlay" + gitPathspecFile),
			"reset": gitSub("-q|--quiet --refresh --no-refresh --soft --mixed --hard --merge --keep --recurse-submodules --no-recurse-submodules -p|--patch -N" + gitPathspecFile),
			"rm":    gitSub("-f|--force -n|--dry-run -r --cached --ignore-unmatch --sparse -q|--quiet"+gitPathspecFile, ops(tWrite)),
			"mv":    gitSub("-f|--force -k -n|--dry-run -v|--verbose --sparse", ops(tWrite)),
			"stash": {abbrev: true, negate: true, operands: ops(tRead), opts: o("-p|--patch -S|--staged -k|--keep-index --no-keep-index -u|--include-untracked -a|--all -q|--quiet -m|--message="), subs: map[string]*spec{
				"list":   gitSub("", gitRevFlags),
				"show":   gitSub("-u|--include-untracked --only-untracked", gitDiffFlags),
				"push":   gitSub("-p|--patch -S|--staged -k|--keep-index --no-keep-index -u|--include-untracked -a|--all -q|--quiet -m|--message=" + gitPathspecFile),
				"save":   gitSub("-p|--patch -S|--staged -k|--keep-index --no-keep-index -u|--include-untracked -a|--all -q|--quiet"),
				"pop":    gitSub("--index -q|--quiet"),
				"apply":  gitSub("--index -q|--quiet"),
				"drop":   gitSub("-q|--quiet"),
				"branch": gitSub(""),
				"clear":  gitSub(""),
				"create": gitSub(""),
				"store":  gitSub("-m|--message= -q|--quiet"),
			}},
			"tag": gitSub("-a|--annotate -s|--sign -u|--local-user= -f|--force -d|--delete -v|--verify -n=? -l|--list --sort= --color=? " +
				"-i|--ignore-case --omit-empty --column=? --no-column --contains=? --no-contains=? --merged=? --no-merged=? --points-at=? " +
				"-m|--message= -F|--file=r -e|--edit --trailer= --cleanup= --create-reflog --format="),
			"fetch": gitSub("--all -a|--append --atomic --depth= --deepen= --shallow-since= --shallow-exclude= --unshallow --update-shallow "+
				"--negotiation-tip= --negotiate-only --dry-run --porcelain --write-fetch-head --no-write-fetch-head -f|--force -k|--keep "+
				"--multiple --auto-maintenance --no-auto-maintenance --auto-gc --no-auto-gc --write-commit-graph --no-write-commit-graph "+
				"--prefetch -p|--prune -P|--prune-tags -n|--no-tags --refetch --refmap= -t|--tags --recurse-submodules=? --no-recurse-submodules "+
				"-j|--jobs= --set-upstream -q|--quiet -v|--verbose --progress --no-progress -4|--ipv4 -6|--ipv6 --show-forced-updates --no-show-forced-updates "+
				"--upload-pack=x", ops(tRepo)),
			"pull": hooks(gitSub("-q|--quiet -v|--verbose --recurse-submodules=? --no-recurse-submodules --commit --no-commit --edit --no-edit --cleanup= "+
				"--ff --no-ff --ff-only -S|--gpg-sign=? --no-gpg-sign --log=? --no-log --signoff --no-signoff --stat -n --no-stat --squash --no-squash "+
				"--verify --no-verify -s|--strategy= -X|--strategy-option= --verify-signatures --no-verify-signatures --summary --no-summary "+
				"--autostash --no-autostash --allow-unrelated-histories -r|--rebase=? --no-rebase --all -a|--append --depth= --deepen= "+
				"--shallow-since= --shallow-exclude= --unshallow --update-shallow -f|--force -k|--keep --no-tags -p|--prune --progress --no-progress "+
				"-4|--ipv4 -6|--ipv6 -t|--tags -j|--jobs= --dry-run --upload-pack=x", ops(tRepo))),
			"push": hooks(gitSub("--all --branches --prune --mirror -n|--dry-run --porcelain --delete -d --tags --follow-tags --no-follow-tags --signed=? " +
				"--no-signed --atomic --no-atomic -o|--push-option= -f|--force --force-with-lease=? --no-force-with-lease --force-if-includes " +
				"--no-force-if-includes --repo= -u|--set-upstream --thin --no-thin -q|--quiet -v|--verbose --progress --no-progress " +
				"--recurse-submodules= --no-recurse-submodules --verify --no-verify -4|--ipv4 -6|--ipv6 --receive-pack|--exec=x")),
			"merge": hooks(gitSub("--commit --no-commit --edit -e --no-edit --cleanup= --ff --no-ff --ff-only -S|--gpg-sign=? --no-gpg-sign --log=? --no-log " +
				"--signoff --no-signoff --stat -n --no-stat --squash --no-squash --verify --no-verify -s|--strategy= -X|--strategy-option= " +
				"--verify-signatures --no-verify-signatures --summary --no-summary -q|--quiet -v|--verbose --progress --no-progress " +
				"--autostash --no-autostash --allow-unrelated-histories -m= -F|--file=r --into-name= --rerere-autoupdate --no-rerere-autoupdate " +
				"--overwrite-ignore --no-overwrite-ignore --abort --quit --continue")),
			"rebase": hooks(gitSub("--onto= --keep-base --apply -m|--merge --empty= --no-keep-empty --keep-empty --reapply-cherry-picks --no-reapply-cherry-picks " +
				"--allow-empty-message --skip --continue --abort --quit --edit-todo --show-current-patch -s|--strategy= -X|--strategy-option= " +
				"--rerere-autoupdate --no-rerere-autoupdate -S|--gpg-sign=? --no-gpg-sign -q|--quiet -v|--verbose --stat -n|--no-stat " +
				"--no-verify --verify -C= --ignore-whitespace --whitespace= --committer-date-is-author-date --ignore-date|--reset-author-date " +
				"--signoff -i|--interactive -r|--rebase-merges=? --no-rebase-merges --root --autosquash --no-autosquash --autostash --no-autostash " +
				"--reschedule-failed-exec --no-reschedule-failed-exec --update-refs --no-update-refs --fork-point --no-fork-point " +
				"-x|--exec=x")),
			"cherry-pick": gitSub("-e|--edit --cleanup= -x -r -m|--mainline= -n|--no-commit -s|--signoff -S|--gpg-sign=? --no-gpg-sign --ff " +
				"--allow-empty --allow-empty-message --empty= --keep-redundant-commits --strategy= -X|--strategy-option= --rerere-autoupdate " +
				"--no-rerere-autoupdate --continue --skip --quit --abort"),
			"revert": gitSub("-e|--edit --no-edit --cleanup= -m|--mainline= -n|--no-commit -S|--gpg-sign=? --no-gpg-sign -s|--signoff " +
				"--strategy= -X|--strategy-option= --rerere-autoupdate --no-rerere-autoupdate --reference --continue --skip --quit --abort"),
			"remote": {abbrev: true, negate: true, opts: o("-v|--verbose"), noOperands: true, subs: map[string]*spec{
				"show":    gitSub("-n"),
				"get-url": gitSub("--push --all"),
				"add":     gitSub("-t= -m= -f --tags --no-tags --mirror=?", ops(tRead, tRepo)),
				"remove":  gitSub(""), "rm": gitSub(""), "rename": gitSub("--progress --no-progress"),
				"set-url":  gitSub("--push --add --delete", ops(tRead, tRepo)),
				"prune":    gitSub("-n|--dry-run"),
				"update":   gitSub("-p|--prune"),
				"set-head": gitSub("-a|--auto -d|--delete"),
			}},
			"rev-parse": gitSub("--parseopt --sq-quote --keep-dashdash --stop-at-non-option --stuck-long --revs-only --no-revs --flags --no-flags " +
				"--default= --prefix= --verify -q|--quiet --sq --short=? --not --abbrev-ref=? --symbolic --symbolic-full-name --output-object-format= " +
				"--all --branches=? --tags=? --remotes=? --glob= --exclude= --exclude-hidden= --disambiguate= --local-env-vars --path-format= " +
				"--git-dir --git-common-dir --resolve-git-dir= --git-path= --show-toplevel --show-superproject-working-tree --shared-index-path " +
				"--absolute-git-dir --is-inside-git-dir --is-inside-work-tree --is-bare-repository --is-shallow-repository --show-cdup " +
				"--show-prefix --show-object-format=? --show-ref-format --since= --after= --until= --before="),
			"ls-files": gitSub("-c|--cached -d|--deleted -m|--modified -o|--others -i|--ignored -s|--stage -u|--unmerged -k|--killed " +
				"--directory --no-empty-directory --eol -z --deduplicate -x|--exclude= -X|--exclude-from=r --exclude-per-directory= " +
				"--exclude-standard --error-unmatch --with-tree= -t -v -f --full-name --recurse-submodules --abbrev=? --debug --sparse --format="),
			"ls-tree": gitSub("-d -r -t -l|--long -z --name-only|--name-status --object-only --full-name --full-tree --format= --abbrev=?"),
			"blame": gitSub("-b --root --show-stats --progress --no-progress --score-debug -f|--show-name -n|--show-number -p|--porcelain " +
				"--line-porcelain -c -t -l -s -e|--show-email -w --ignore-rev= --ignore-revs-file=r --color-lines --color-by-age " +
				"--minimal -S=r --reverse= --first-parent -L= -M=? -C=? --abbrev=? --incremental --encoding= --date= --contents=r"),
			"annotate": gitSub("-b --root --show-stats -f|--show-name -n|--show-number -p|--porcelain -c -t -l -s -e|--show-email -w -L= -M=? -C=? --contents=r"),
			"grep": gitSub("--cached --untracked --no-index --no-exclude-standard --exclude-standard --recurse-submodules -a|--text --textconv " +
				"--no-textconv -i|--ignore-case -I --max-depth= -r|--recursive --no-recursive -w|--word-regexp -v|--invert-match -h -H " +
				"--full-name -E|--extended-regexp -G|--basic-regexp -P|--perl-regexp -F|--fixed-strings -n|--line-number --column " +
				"-l|--files-with-matches|--name-only -L|--files-without-match -z|--null -o|--only-matching -c|--count --color=? --no-color " +
				"--break --heading -p|--show-function -C|--context= -A|--after-context= -B|--before-context= -W|--function-context " +
				"-m|--max-count= --threads= -f=r -e= --and --or --not --all-match -q|--quiet -O|--open-files-in-pager=?x"),
			"describe": gitSub("--dirty=? --broken=? --all --tags --contains --abbrev= --candidates= --exact-match --debug --long " +
				"--match= --exclude= --always --first-parent"),
			"reflog": {abbrev: true, negate: true, opts: cat(gitDiffFlags, gitRevFlags), operands: ops(tRead), subs: map[string]*spec{
				"show": gitSub("", gitDiffFlags, gitRevFlags), "list": gitSub(""), "exists": gitSub(""),
			}},
			"init":  gitSub("-q|--quiet --bare --object-format= --ref-format= -b|--initial-branch= --shared=?", ops(tWrite)),
			"clone": gitSub("-l|--local --no-hardlinks -s|--shared --dissociate -q|--quiet -v|--verbose --progress --server-option= -n|--no-checkout --reject-shallow --no-reject-shallow --bare --sparse --filter= --also-filter-submodules --mirror -o|--origin= -b|--branch= --revision= --reference= --reference-if-able= --depth= --shallow-since= --shallow-exclude= --single-branch --no-single-branch --no-tags --tags --recurse-submodules=? --remote-submodules --no-remote-submodules -j|--jobs= --bundle-uri= --shallow-submodules --no-shallow-submodules -4|--ipv4 -6|--ipv6 -u|--upload-pack=x --template=x -c|--config=x --separate-git-dir=x", ops(tRepo, tWrite)),
			"config": {abbrev: true, negate: true, operands: ops(tLit), maxOperands: 1,
				opts: o("--get --get-all --get-regexp --get-urlmatch -l|--list --show-origin --show-scope --name-only -z|--null " +
					"--global --system --local --worktree -f|--file=r --blob= --type= --bool --int --bool-or-int --path --expiry-date " +
					"--default= --includes --no-includes"),
				allow: []string{"git config --get user.email", "git config user.name", "git config -l"},
				deny:  []string{"git config core.pager sh", "git config alias.x !sh", "git config --add core.fsmonitor x", "git config --unset x"},
			},
			"cat-file":      gitSub("-t -s -e -p --mailmap --no-mailmap --textconv --filters --path= --batch=? --batch-check=? --batch-command=? --batch-all-objects --buffer --unordered --follow-symlinks -Z -z --allow-unknown-type --use-mailmap"),
			"merge-base":    gitSub("-a|--all --octopus --independent --is-ancestor --fork-point"),
			"diff-tree":     gitSub("-r -t --root --merge-base --stdin -m -s -v --pretty=? --no-commit-id -c --cc --combined-all-paths --always", gitDiffFlags),
			"diff-index":    gitSub("-m --cached --merge-base", gitDiffFlags),
			"diff-files":    gitSub("-q -0 -1 -2 -3 -c --cc --base --ours --theirs", gitDiffFlags),
			"for-each-ref":  gitSub("--count= --shell -s --perl --python --tcl --sort= --format= --color=? --points-at= --merged=? --no-merged=? --contains=? --no-contains=? --ignore-case --omit-empty --exclude= --include-root-refs --stdin"),
			"show-ref":      gitSub("--head --branches --tags -d|--dereference -s|--hash=? --abbrev=? --verify --exists -q|--quiet --exclude-existing=?"),
			"symbolic-ref":  gitSub("-q|--quiet --short --no-recurse --recurse", ops(tRead), 1),
			"name-rev":      gitSub("--tags --refs= --exclude= --all --annotate-stdin --name-only --no-undefined --always"),
			"show-branch":   gitSub("-r|--remotes -a|--all --current --topo-order --date-order --sparse --more= --list --merge-base --independent --no-name --sha1-name --topics -g|--reflog=? --color=? --no-color"),
			"check-ignore":  gitSub("-q|--quiet -v|--verbose --stdin -z -n|--non-matching --no-index"),
			"check-attr":    gitSub("-a|--all --cached --stdin -z --source="),
			"count-objects": gitSub("-v|--verbose -H|--human-readable"),
			"fsck":          gitSub("--unreachable --dangling --no-dangling --root --tags --cache --no-reflogs --full --no-full --connectivity-only --strict --verbose --lost-found --name-objects --progress --no-progress"),
			"var":           gitSub("-l"),
			"version":       gitSub("--build-options"),
			"help":          gitSub("-a|--all --no-external-commands --no-aliases --verbose -c|--config -g|--guides --user-interfaces --developer-interfaces -i|--info -m|--man"),
			"hash-object":   gitSub("-t= -w --stdin --stdin-paths --path= --no-filters --literally"),
			"apply": gitSub("--stat --numstat --summary --check --index --intent-to-add -N --cached -3|--3way --ours --theirs --union --build-fake-ancestor= " +
				"-R|--reverse --reject -z -p= -C= --unidiff-zero --apply --no-add --allow-binary-replacement|--binary --exclude= --include= " +
				"--ignore-space-change|--ignore-whitespace --whitespace= --inaccurate-eof -v|--verbose -q|--quiet --recount --directory= --allow-empty " +
				"--unsafe-paths!"),
			"clean": gitSub("-d -f|--force -i|--interactive -n|--dry-run -q|--quiet -e|--exclude= -x -X"),
			"worktree": {abbrev: true, negate: true, noOperands: true, subs: map[string]*spec{
				"list":   gitSub("--porcelain -v|--verbose --expire= -z"),
				"add":    gitSub("-f|--force --detach --checkout --no-checkout --guess-remote --no-guess-remote --track --no-track --lock --reason= --orphan -q|--quiet --relative-paths -b= -B=", ops(tWrite, tRead)),
				"remove": gitSub("-f|--force", ops(tWrite)),
				"prune":  gitSub("-n|--dry-run -v|--verbose --expire="),
				"lock":   gitSub("--reason=", ops(tRead)),
				"unlock": gitSub("", ops(tRead)),
				"move":   gitSub("-f|--force", ops(tWrite)),
				"repair": gitSub("--relative-paths", ops(tRead)),
			}},
			"submodule": {abbrev: true, negate: true, opts: o("-q|--quiet --cached"), noOperands: true, subs: map[string]*spec{
				"status":  gitSub("--cached --recursive"),
				"summary": gitSub("--cached --files -n|--summary-limit= --for-status"),
				"init":    gitSub(""),
				"sync":    gitSub("--recursive"),
				"update":  gitSub("--init --remote -N|--no-fetch --no-recommend-shallow --recommend-shallow -f|--force --checkout --rebase --merge --reference= --dissociate --depth= --recursive --jobs= --single-branch --no-single-branch --filter="),
				"foreach": {whole: "runs a command in every submodule"},
			}},
			"bisect": {noOperands: true, subs: map[string]*spec{
				"start": gitSub("--term-new= --term-bad= --term-old= --term-good= --no-checkout --first-parent"),
				"bad":   gitSub(""), "good": gitSub(""), "new": gitSub(""), "old": gitSub(""), "skip": gitSub(""),
				"reset": gitSub(""), "log": gitSub(""), "terms": gitSub("--term-good --term-bad"), "visualize": gitSub("", gitDiffFlags, gitRevFlags),
				"run": {whole: "runs a command at every step"},
			}},
			"bundle": {noOperands: true, subs: map[string]*spec{
				"create":     gitSub("-q|--quiet --progress --version=", ops(tWrite, tRead)),
				"verify":     gitSub("-q|--quiet", ops(tRead)),
				"list-heads": gitSub("", ops(tRead)),
				"unbundle":   gitSub("--progress", ops(tRead)),
			}},
			"archive":    gitSub("--format= -l|--list --prefix= --add-file=r --add-virtual-file= -o|--output=w --worktree-attributes --mtime= -v|--verbose -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 --remote=x --exec=x"),
			"notes":      {noOperands: true, opts: o("--ref="), subs: map[string]*spec{"list": gitSub(""), "show": gitSub("")}},
			"fetch-pack": gitSub("--all --stdin -q|--quiet -k|--keep --thin --include-tag --upload-pack|--exec=x --depth= --shallow-since= --shallow-exclude= --deepen-relative --refetch --no-progress --check-self-contained-and-connected -v"),
			"send-pack":  gitSub("--receive-pack|--exec=x --git-dir=gitdir --all --mirror --dry-run --force --verbose --thin --atomic --signed=? --push-option= --stdin --no-progress"),
			"ls-remote":  gitSub("-h|--heads -b|--branches -t|--tags --refs -q|--quiet --upload-pack|--exec=x --exit-code --get-url --sort= --symref -o|--server-option=", ops(tRepo)),
			"difftool":   {whole: "runs the configured diff program"}, "mergetool": {whole: "runs the configured merge program"},
			"filter-branch": {whole: "runs the commands given in its arguments"},
			"send-email":    {whole: "runs mail programs and hooks"}, "daemon": {whole: "serves the repository"},
			"instaweb": {whole: "runs a web server"}, "credential": {whole: "runs credential helpers"},
		},
		allow: []string{"git status", "git diff HEAD~1", "git log @{u}..HEAD", "git stash show stash@{0}", "git log --oneline -n 3", "git log --oneline -5",
			"git show HEAD~2", "git commit -m 'feat(parser): x'", "git commit -m \"fix A & B\"", "git -C sub status", "git commit -F msg.txt",
			"git archive -o release.zip HEAD", "git format-patch -o patches/ HEAD~3", "git diff --stat", "git diff -- a.go", "git grep -n TODO",
			"git grep -e x -- a.go", "git blame -L 1,5 a.go", "git checkout main", "git add a.go", "git stash", "git stash pop", "git tag -a v1 -m release",
			"git bundle verify a.bundle", "git worktree list", "git init", "git rebase main", "git bisect good", "git submodule status", "git fetch origin",
			"git push origin main", "git branch -vv", "git diff --no-index a.txt b.txt", "git rev-parse --show-toplevel", "git log --format='%h %s' -n 10"},
		deny: []string{"git -c core.pager=sh log", "git --exec-path=/tmp status", "git -C /outside log", "git --git-dir=/outside/.git log",
			"git config alias.x !sh", "git grep -Obash x", "git diff --no-index /outside/secret /dev/null", "git grep --no-index -Obash -e x -- evil.sh",
			"git grep -O x", "git grep --open-files=sh x", "git grep -iO x", "git diff --output=/tmp/x", "git diff --outp=/tmp/x", "git diff --ext-diff",
			"git diff /outside/secret /dev/null", "git diff ../other/secret a.go", "git log --output=/tmp/x", "git log --output /tmp/x", "git show --output=/tmp/x",
			"git format-patch -o /tmp/x HEAD~1", "git blame --contents /outside/secret a.go", "git blame -S /outside/secret a.go",
			"git checkout --pathspec-from-file=/outside/secret", "git add --pathspec-from-file=/outside/secret", "git stash push --pathspec-from-file=/outside/secret",
			"git tag -a t -F /outside/secret", "git tag -aF/outside/secret t", "git bundle create /outside/x HEAD", "git worktree add /outside/x",
			"git fetch-pack --upload-pack=sh x", "git send-pack --receive-pack=sh x", "git rebase -x sh HEAD~2", "git rebase --exec=sh main",
			"git bisect run sh", "git submodule foreach sh", "git fetch --upload-pack=sh origin", "git clone -u sh x", "git clone --template=/tmp/t x",
			"git init /outside/x", "git push --receive-pack=sh origin", "git commit -F /outside/secret", "git frobnicate", "git st",
			"git commit --frobnicate", "git archive --remote=x HEAD", "git apply --unsafe-paths p.diff"},
	}
	return map[string]*spec{
		"git": gitSpec,
	}
}
