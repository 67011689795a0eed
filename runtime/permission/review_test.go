package permission

import (
	"testing"
)

// TestReviewLines: the lines of the outside review (issue 14, items 1, 2,
// 3 and 5), judged by the lists it names. Their effect is checked through
// the Bash tool in testdata/attacks/review-*.json.
func TestReviewLines(t *testing.T) {
	const compound, strict = true, false
	tests := []lineCase{
		// 1. Where mvdan.cc/sh and bash split differently.
		{[]string{"Bash(git status:*)"}, compound, "git status #\\\ntouch x", false},
		{[]string{"Bash(git status:*)"}, compound, "git status #\\\n", false},
		{[]string{"Bash(git status:*)"}, compound, "git status # fine\ngit status", true},
		{[]string{"Bash(git status:*)"}, strict, "git status #\\\ntouch x", false},
		{[]string{"Bash(echo:*)"}, compound, "echo a \\\n b", true},
		{[]string{"Bash(echo:*)"}, compound, "echo a\\\nb", false}, // a continuation inside a word
		// 2. State-changing builtins.
		{[]string{"Bash(printf:*)", "Bash(git status:*)"}, compound, "printf -v HOME %s notes && git status", false},
		{[]string{"Bash(cd:*)", "Bash(git status:*)"}, compound, "cd notes/evil && git status", false},
		{[]string{"Bash(printf:*)", "Bash(ls:*)"}, compound, "printf -v PATH %s bin && ls", false},
		{[]string{"Bash(read:*)", "Bash(ls:*)"}, compound, "read PATH < /dev/null || ls", false},
		{[]string{"Bash(mapfile:*)", "Bash(ls:*)"}, compound, "mapfile PATH; ls", false},
		{[]string{"Bash(readarray:*)", "Bash(ls:*)"}, compound, "readarray PATH; ls", false},
		{[]string{"Bash(getopts:*)", "Bash(ls:*)"}, compound, "getopts a PATH; ls", false},
		{[]string{"Bash(pushd:*)", "Bash(ls:*)"}, compound, "pushd x && ls", false},
		{[]string{"Bash(popd:*)", "Bash(ls:*)"}, compound, "popd && ls", false},
		{[]string{"Bash(umask:*)", "Bash(ls:*)"}, compound, "umask 0 && ls", false},
		{[]string{"Bash(ulimit:*)", "Bash(ls:*)"}, compound, "ulimit -n 1 && ls", false},
		{[]string{"Bash(unset:*)", "Bash(ls:*)"}, compound, "unset PATH && ls", false},
		{[]string{"Bash(export:*)", "Bash(ls:*)"}, compound, "export PATH=x && ls", false},
		{[]string{"Bash(declare:*)", "Bash(ls:*)"}, compound, "declare PATH=x && ls", false},
		{[]string{"Bash(cd:*)"}, compound, "cd notes", true},
		{[]string{"Bash(cd:*)"}, strict, "cd notes", true},
		{[]string{"Bash(export:*)"}, strict, "export A=1", true},
		{[]string{"Bash(printf:*)", "Bash(ls:*)"}, compound, "printf '%s\\n' a | ls", true},
		// 3. Prefix entries that run code, write or read outside.
		{[]string{"Bash(git grep:*)"}, strict, "git grep --no-index -Obash -e x -- evil.sh", false},
		{[]string{"Bash(git grep:*)"}, strict, "git grep -n TODO -- a.go", true},
		{[]string{"Bash(sort:*)"}, strict, "sort --compress-program=bash data.txt", false},
		{[]string{"Bash(sort:*)"}, strict, "sort --compress-prog=bash data.txt", false},
		{[]string{"Bash(git log:*)"}, strict, "git log --output=/tmp/x", false},
		{[]string{"Bash(git diff:*)"}, strict, "git diff --no-index /outside/secret /dev/null", false},
		{[]string{"Bash(date:*)"}, strict, "date -f /outside", false},
		// Typed operands (issue 26): a directory, or a file written, inside
		// the working directory is allowed; the review's lines reached
		// outside it in effect, and so do these.
		{[]string{"Bash(npm run test:*)"}, strict, "npm run test --prefix /outside/notes", false},
		{[]string{"Bash(npm run test:*)"}, strict, "npm run test --prefix notes", true},
		{[]string{"Bash(npm run test:*)"}, strict, "npm run test --node-options=--require=./evil.js", false},
		// After "--" the arguments go to the script's interpreter (node
		// --import=data:... runs code): allowed only where an entry names them.
		{[]string{"Bash(npm run test:*)"}, strict, "npm run test -- --watch", false},
		{[]string{"Bash(npm run test:*)"}, strict, "npm run test -- '--import=data:text/javascript,x'", false},
		{[]string{"Bash(npm run test -- --watch:*)"}, strict, "npm run test -- --watch", true},
		{[]string{"Bash(go test:*)"}, strict, "go test -exec=sh ./...", false},
		{[]string{"Bash(go test:*)"}, strict, "go test -toolexec sh ./...", false},
		{[]string{"Bash(go test:*)"}, strict, "go test -run TestX ./...", true},
		{[]string{"Bash(rg:*)"}, strict, "rg --pre=bash x", false},
		{[]string{"Bash(find:*)"}, strict, "find . -exec rm {} ;", false},
		{[]string{"Bash(find:*)"}, strict, "find . -execdir sh ;", false},
		{[]string{"Bash(find:*)"}, strict, "find . -ok rm ;", false},
		{[]string{"Bash(find:*)"}, strict, "find . -delete", false},
		{[]string{"Bash(find:*)"}, strict, "find . -fprint /tmp/x", false},
		{[]string{"Bash(find:*)"}, strict, "find . -fprint .git/hooks/pre-commit", false},
		{[]string{"Bash(find:*)"}, strict, "find . -fprint x", true},
		{[]string{"Bash(tar:*)"}, strict, "tar --to-command=sh -xf a.tar", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xvIf sh a.tar", false},
		{[]string{"Bash(tar:*)"}, strict, "tar --use-compress-program=sh -xf a.tar", false},
		{[]string{"Bash(sed:*)"}, strict, "sed -i s/a/b/ /outside/x", false},
		{[]string{"Bash(sed:*)"}, strict, "sed -i s/a/b/ .git/config", false},
		{[]string{"Bash(sed:*)"}, strict, "sed -i s/a/b/ x", true},
		{[]string{"Bash(sed:*)"}, strict, "sed 1e x", false},
		{[]string{"Bash(sed:*)"}, strict, "sed 'w /tmp/x' x", false},
		{[]string{"Bash(awk:*)"}, strict, `awk 'BEGIN{system("sh")}'`, false},
		{[]string{"Bash(awk:*)"}, strict, `awk '{print | "sh"}' x`, false},
		{[]string{"Bash(less:*)"}, strict, "less +!sh x", false},
		{[]string{"Bash(man:*)"}, strict, "man -P sh ls", false},
		{[]string{"Bash(xargs:*)"}, strict, "xargs sh", false},
		{[]string{"Bash(env:*)"}, strict, "env sh", false},
		{[]string{"Bash(git:*)"}, strict, "git -c core.pager=sh log", false},
		{[]string{"Bash(git:*)"}, strict, "git config alias.x '!sh'", false},
		{[]string{"Bash(git:*)"}, strict, "git fetch --upload-pack=sh origin", false},
		{[]string{"Bash(git:*)"}, strict, "git --exec-path=/tmp status", false},
		{[]string{"Bash(/usr/bin/find:*)"}, strict, "/usr/bin/find . -delete", false},
		// 5. False denials in strict mode, and in compound mode.
		{[]string{"Bash(git:*)"}, strict, "git diff HEAD~1", true},
		{[]string{"Bash(git:*)"}, strict, "git show HEAD~2", true},
		{[]string{"Bash(git:*)"}, strict, "git log @{u}..HEAD", true},
		{[]string{"Bash(git:*)"}, strict, "git stash show stash@{0}", true},
		{[]string{"Bash(git:*)"}, strict, `git commit -m "feat(parser): x"`, true},
		{[]string{"Bash(git:*)"}, strict, `git commit -m "fix A & B"`, true},
		{[]string{"Bash(git:*)", "Bash(head:*)"}, compound, "git diff HEAD~1 | head", true},
		// ... while what bash expands still denies.
		{[]string{"Bash(git:*)"}, strict, "git diff ~", false},
		{[]string{"Bash(git:*)"}, strict, "git diff ~/x", false},
		{[]string{"Bash(git:*)"}, strict, "git log --since=~", false},
		{[]string{"Bash(git:*)"}, strict, "git add {a,b}", false},
		{[]string{"Bash(git:*)"}, strict, "git add x{1..3}", false},
		{[]string{"Bash(git:*)"}, strict, `git commit -m "$(id)"`, false},
		{[]string{"Bash(git:*)"}, strict, "git commit -m `id`", false},
		{[]string{"Bash(git:*)"}, strict, "git status && id", false},
		{[]string{"Bash(git:*)"}, strict, "git add *.go", false},
		{[]string{"Bash(git:*)"}, strict, "git add '*.go'", true},
	}
	checkLines(t, "", nil, tests)
}
