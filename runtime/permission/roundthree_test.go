package permission

import "testing"

// TestRoundThreeAttacks: the lines of the third review that went past the
// judge under narrow entries, each refused now under the entry the review
// used.
func TestRoundThreeAttacks(t *testing.T) {
	tests := []struct{ entry, line string }{
		{"Bash(sed -n:*)", "sed -n --expr='1e touch /out/x' /etc/passwd"},
		{"Bash(sed -n:*)", "sed -n --exp '1e touch /out/x' /etc/passwd"},
		{"Bash(awk:*)", "mawk -W exec evil.awk a"},
		{"Bash(mawk:*)", "mawk -W exec evil.awk a"},
		{"Bash(make test:*)", "make test --eval='$(shell touch /out/x)'"},
		{"Bash(make test:*)", "make test 'X:=$(shell touch /out/x)'"},
		{"Bash(make test:*)", "make test -f /outside/Makefile"},
		{"Bash(cargo test:*)", `cargo test --config 'target.x86_64-unknown-linux-gnu.runner=["sh","-c","touch /out/x"]'`},
		{"Bash(go vet:*)", "go vet -toolexec=/tmp/x ./..."},
		{"Bash(go install:*)", "go install -toolexec=/tmp/x ./..."},
		{"Bash(go test:*)", "go test -gcflags=-cpuprofile=/outside/x ./..."},
		{"Bash(go test:*)", "go test ./... -args -test.testlogfile=/outside/x"},
		{"Bash(git diff:*)", "git diff /outside/secret /dev/null"},
		{"Bash(git checkout:*)", "git checkout --pathspec-from-file=/secret"},
		{"Bash(git add:*)", "git add --pathspec-from-file=/secret"},
		{"Bash(git commit:*)", "git commit --pathspec-from-file=/secret"},
		{"Bash(git restore:*)", "git restore --pathspec-from-file=/secret"},
		{"Bash(git stash:*)", "git stash push --pathspec-from-file=/secret"},
		{"Bash(git blame:*)", "git blame -S /secret a.go"},
		{"Bash(git tag:*)", "git tag -a t -F /secret"},
		{"Bash(git bundle:*)", "git bundle create /outside/x HEAD"},
		{"Bash(git worktree:*)", "git worktree add /outside/x"},
		{"Bash(git init:*)", "git init /outside/x"},
		{"Bash(git fetch-pack:*)", "git fetch-pack --upload-pack='touch /out/x' x"},
		{"Bash(git send-pack:*)", "git send-pack --receive-pack='touch /out/x' x"},
		{"Bash(npm run test:*)", "npm run test -- '--import=data:text/javascript,require(\"fs\").writeFileSync(\"/out/x\",\"\")'"},
	}
	for _, tt := range tests {
		l, err := Parse(tt.entry)
		if err != nil {
			t.Fatal(err)
		}
		if d := l.Decide(cmdReq("Bash", tt.line)); d.Allowed {
			t.Errorf("%s allowed %q", tt.entry, tt.line)
		}
	}
}
