package permission

import "testing"

// TestReviewFourSpecs: the lines of the fourth review that the specs and
// the script readers let through (or refused wrongly), judged by the
// entries the review used. Each comment says what the command really did.
func TestReviewFourSpecs(t *testing.T) {
	const strict = false
	tests := []lineCase{
		// 4. A backslash does not hide the newline that ends a sed comment
		// or label: GNU sed ran the 1e after it.
		{[]string{"Bash(sed:*)"}, strict, "sed -n '#x\\\n1e touch /tmp/PWNED' README.md", false},
		{[]string{"Bash(sed -n:*)"}, strict, "sed -n ':x\\\n1e touch /tmp/PWNED' README.md", false},
		{[]string{"Bash(sed -n:*)"}, strict, "sed -n 'bx\\\n1e touch /tmp/PWNED' README.md", false},
		{[]string{"Bash(sed:*)"}, strict, "sed '1a\\\nappended' README.md", true},         // a's text goes on after a backslash-newline
		{[]string{"Bash(sed:*)"}, strict, "sed '1a one\\\n1e two' README.md", true},       // the second line is a's text, not a command
		{[]string{"Bash(sed:*)"}, strict, "sed -n '# just a comment\np' README.md", true}, // a comment, then p
		{[]string{"Bash(sed:*)"}, strict, "sed -n ':a\nN\n$!ba\np' README.md", true},
		// 8. awk chooses the files it reads by assigning ARGV: it printed
		// a file outside the workspace.
		{[]string{"Bash(awk:*)"}, strict, `awk 'BEGIN{ARGV[1]="/home/u/.ssh/id_rsa";ARGC=2}{print}'`, false},
		{[]string{"Bash(awk:*)"}, strict, `awk 'BEGIN{ARGC=2; ARGV[1]="/etc/shadow"} {print}' a`, false},
		{[]string{"Bash(gawk:*)"}, strict, `gawk 'BEGIN{SYMTAB["AR" "GV"][1]="/etc/shadow"} {print}' a`, false},
		// The program is the first operand whatever '=' it holds: it was
		// typed as an assignment (a literal) and ran system().
		{[]string{"Bash(awk:*)"}, strict, `awk 'BEGIN{x=1; system("touch /tmp/PWNED")}'`, false},
		{[]string{"Bash(awk:*)"}, strict, `awk '{s+=$2} END {print s}' n=1 README.md`, true},
		// A '|' inside a regular expression or a string is not a pipe.
		{[]string{"Bash(awk:*)"}, strict, `awk '/a|b/' README.md`, true},
		{[]string{"Bash(awk:*)"}, strict, `awk '$1 ~ /x|y/ {print}' README.md`, true},
		{[]string{"Bash(awk:*)"}, strict, `awk '!/a|b/ && /[|]/ {print $2}' README.md`, true},
		{[]string{"Bash(awk:*)"}, strict, `awk -F'|' '{print $2}' README.md`, true},
		{[]string{"Bash(awk:*)"}, strict, `awk 'BEGIN{FS="|"} {print $1}' README.md`, true},
		{[]string{"Bash(awk:*)"}, strict, `awk '/[[:digit:]]|x/ {n++} END {print n}' README.md`, true},
		// ... but a pipe stays one.
		{[]string{"Bash(awk:*)"}, strict, `awk '{print | "sh"}' README.md`, false},
		{[]string{"Bash(awk:*)"}, strict, `awk '/a|b/ {print | "sh"}' README.md`, false},
		{[]string{"Bash(awk:*)"}, strict, `awk '{print $1 /2/ | "sh"}' README.md`, false},               // a division, not a regex
		{[]string{"Bash(awk:*)"}, strict, "awk '{x = a++ / 2 | \"sh\" / 3}' README.md", false},          // a++ / 2: a division
		{[]string{"Bash(awk:*)"}, strict, "awk '{x = a \\\n/ 2 | \"sh\" / 3}' README.md", false},        // a continued line: a division
		{[]string{"Bash(awk:*)"}, strict, "awk '{x = (a)\n/ 2 | \"sh\" / 3}' README.md", false},         // after an operand the careful reading
		{[]string{"Bash(awk:*)"}, strict, "awk '# \"\\\n{print | \"sh\"} # \"' README.md", false},       // a comment ends at its newline
		{[]string{"Bash(gawk:*)"}, strict, `gawk '/[[:a:]/] x (/ {print | "sh"} /)/' README.md`, false}, // a '/' in a bracket expression
		{[]string{"Bash(awk:*)"}, strict, `awk '/[/]|x/ {print | "sh"}' README.md`, false},
		{[]string{"Bash(awk:*)"}, strict, `awk '"unended' README.md`, false},
		// 5. npm's -d takes no value: the judge swallowed --script-shell as
		// its value and npm ran the scripts through /outside/evil.sh.
		{[]string{"Bash(npm run test:*)"}, strict, "npm run test -d --script-shell=/outside/evil.sh", false},
		{[]string{"Bash(npm run test:*)"}, strict, "npm run test -dd --script-shell=/outside/evil.sh", false},
		{[]string{"Bash(npm run test:*)"}, strict, "npm run test --script-sh=/outside/evil.sh", false},
		{[]string{"Bash(npm:*)"}, strict, "npm test -d", true},
		{[]string{"Bash(npm:*)"}, strict, "npm run build -d -w packages/core", true},
		// 6. rustup reads +PATH as a toolchain directory: it ran
		// /outside/tc/bin/cargo.
		{[]string{"Bash(cargo:*)"}, strict, "cargo +/outside/tc test", false},
		{[]string{"Bash(cargo:*)"}, strict, "cargo +../tc test", false},
		{[]string{"Bash(cargo:*)"}, strict, "cargo +.. test", false},
		{[]string{"Bash(cargo:*)"}, strict, "cargo +tc/x test", false},
		{[]string{"Bash(cargo:*)"}, strict, "cargo +nightly test", true},
		{[]string{"Bash(cargo:*)"}, strict, "cargo +1.80.0 build", true},
		{[]string{"Bash(cargo:*)"}, strict, "cargo +stable-x86_64-unknown-linux-gnu test", true},
		// 3. Member names are never judged: --transform named a member
		// .git/hooks/post-checkout (mode 755) and tar -x installed it.
		{[]string{"Bash(tar:*)"}, strict, "tar -cf h.tar --mode=755 --transform=s,hk,.git/hooks/post-checkout, hk", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -cf h.tar --xform=s,hk,.git/hooks/post-checkout, hk", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -cf h.tar --trans=s,hk,.git/hooks/post-checkout, hk", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf h.tar", false},
		{[]string{"Bash(tar:*)"}, strict, "tar xf h.tar", false},
		{[]string{"Bash(tar:*)"}, strict, "tar --extract -f h.tar", false},
		{[]string{"Bash(tar:*)"}, strict, "tar --get -f h.tar", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf h.tar -C .", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf h.tar -C build/..", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -xf h.tar -C build -C ..", false}, // the second -C is taken from the first
		{[]string{"Bash(tar:*)"}, strict, "tar -xf h.tar x -C build", false},     // -C after a member applies to the later ones
		{[]string{"Bash(tar:*)"}, strict, "tar -xzf release.tar.gz -C build", true},
		{[]string{"Bash(tar -x:*)"}, strict, "tar -x -f h.tar", true},
		{[]string{"Bash(tar -xf:*)"}, strict, "tar -xf h.tar", true},
		{[]string{"Bash(tar:*)"}, strict, "tar -tf h.tar", true},
		{[]string{"Bash(tar:*)"}, strict, "tar -czf out.tar.gz src", true},
		// 10. HOST:FILE is a remote archive: GNU tar ran rsh (ssh) to
		// backuphost.
		{[]string{"Bash(tar:*)"}, strict, "tar -tf backuphost:a.tar", false},
		{[]string{"Bash(tar:*)"}, strict, "tar tf u@backuphost:a.tar", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -t --file=backuphost:a.tar", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -cf backuphost:a.tar src", false},
		{[]string{"Bash(tar -tf:*)"}, strict, "tar -tf backuphost:a.tar", false}, // naming -f is not naming a remote archive
		{[]string{"Bash(tar:*)"}, strict, "tar -tf backuphost:a.tar --force-local", true},
		{[]string{"Bash(tar:*)"}, strict, "tar -tf ./backuphost:a.tar", true},
		// 11. Names read from a file are never judged: tar archived a file
		// outside the workspace.
		{[]string{"Bash(tar:*)"}, strict, "tar -cf x.tar -T list.txt", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -cf x.tar --files-from=list.txt", false},
		{[]string{"Bash(tar:*)"}, strict, "tar -cf x.tar --files-from list.txt", false},
		{[]string{"Bash(sort:*)"}, strict, "sort --files0-from=list.txt", false}, // printed a file list.txt named
		{[]string{"Bash(sort:*)"}, strict, "sort --files0=list.txt", false},
		{[]string{"Bash(wc:*)"}, strict, "wc --files0-from=list.txt", false},
		{[]string{"Bash(du:*)"}, strict, "du --files0-from=list.txt", false},
		{[]string{"Bash(file:*)"}, strict, "file -f list.txt", false},
		{[]string{"Bash(file:*)"}, strict, "file --files-from list.txt", false},
		{[]string{"Bash(zip:*)"}, strict, "zip -@ out.zip", false}, // names from its input (a pipe in compound mode)
		{[]string{"Bash(sort --files0-from:*)"}, strict, "sort --files0-from list.txt", true},
		{[]string{"Bash(sort:*)"}, strict, "sort data.txt", true},
		// 12. A filter read from a file is not read by the judge: q.jq
		// imported a module outside the workspace.
		{[]string{"Bash(jq:*)"}, strict, "jq -n -f q.jq", false},
		{[]string{"Bash(jq:*)"}, strict, "jq --from-file q.jq a.json", false},
		{[]string{"Bash(jq:*)"}, strict, "jq --from=q.jq a.json", false},
		{[]string{"Bash(jq:*)"}, strict, "jq -nf q.jq", false},
		{[]string{"Bash(jq -f:*)"}, strict, "jq -f q.jq a.json", true},
		{[]string{"Bash(jq:*)"}, strict, "jq -L lib .name package.json", true}, // no import: -L loads nothing
		// 16. gzip -r replaced every file below '.', .git/config and .env
		// included; pytest deletes its --basetemp.
		{[]string{"Bash(gzip:*)"}, strict, "gzip -r .", false},
		{[]string{"Bash(gzip:*)"}, strict, "gzip --recursive src", false},
		{[]string{"Bash(gunzip:*)"}, strict, "gunzip -r .", false},
		{[]string{"Bash(gzip:*)"}, strict, "gzip -kr src", false},
		{[]string{"Bash(gzip -r:*)"}, strict, "gzip -r src", true},
		{[]string{"Bash(gzip:*)"}, strict, "gzip -k data.json", true},
		{[]string{"Bash(pytest:*)"}, strict, "pytest --basetemp=.", false},
		{[]string{"Bash(pytest:*)"}, strict, "pytest --basetemp .", false},
		{[]string{"Bash(pytest:*)"}, strict, "pytest --basetemp=tmp/..", false},
		{[]string{"Bash(pytest:*)"}, strict, "pytest --basetemp=./", false},
		{[]string{"Bash(python3:*)"}, strict, "python3 -m pytest --basetemp=.", false},
		{[]string{"Bash(pytest:*)"}, strict, "pytest --basetemp=.git", false},
		{[]string{"Bash(pytest:*)"}, strict, "pytest --basetemp=/outside/t", false},
		{[]string{"Bash(pytest:*)"}, strict, "pytest --basetemp=tmp/pytest", true},
		// 17. python3 -X pycache_prefix= wrote .pyc files outside.
		{[]string{"Bash(python3:*)"}, strict, "python3 -X pycache_prefix=/outside/pyc -m pytest", false},
		{[]string{"Bash(python3:*)"}, strict, "python3 -Xpycache_prefix=/outside/pyc -m pytest", false},
		{[]string{"Bash(python3:*)"}, strict, "python3 -BX pycache_prefix=/outside/pyc -m pytest", false},
		{[]string{"Bash(python3:*)"}, strict, "python3 -X presite=evil -m pytest", false},
		{[]string{"Bash(python3:*)"}, strict, "python3 -X utf8=2 -m pytest", false},
		{[]string{"Bash(python3:*)"}, strict, "python3 -X int_max_str_digits=x -m pytest", false},
		{[]string{"Bash(python3:*)"}, strict, "python3 -X utf8 -X dev -X importtime -m pytest -q", true},
		{[]string{"Bash(python3:*)"}, strict, "python3 -X frozen_modules=off -X int_max_str_digits=0 -X faulthandler script.py", true},
		{[]string{"Bash(python3 -X:*)"}, strict, "python3 -X pycache_prefix=pyc script.py", true},
	}
	checkLines(t, "", nil, tests)
}
