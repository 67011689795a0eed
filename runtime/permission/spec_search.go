package permission

// Specs of the programs that search files and edit streams: grep, rg,
// find, sed, awk and jq. Their scripts are read too: a sed script that
// runs a command or writes a file, an awk program that calls system(), a
// jq filter that imports a module are refused.

// searchSpecs builds this file's specs, by program name (see specTable).
func searchSpecs() map[string]*spec {
	grepSpec := &spec{abbrev: true, numeric: true, script: tLit, operands: ops(tRead),
		opts: does(o("-E|--extended-regexp -F|--fixed-strings -G|--basic-regexp -P|--perl-regexp -e|--regexp=+script -f|--file=r+script "+
			"-i|-y|--ignore-case --no-ignore-case -v|--invert-match -w|--word-regexp -x|--line-regexp -c|--count --color|--colour=? "+
			"-L|--files-without-match -l|--files-with-matches -m|--max-count= -o|--only-matching -q|--quiet|--silent -s|--no-messages "+
			"-b|--byte-offset -H|--with-filename -h|--no-filename --label= -n|--line-number --no-line-number -T|--initial-tab "+
			"-Z|--null -z|--null-data -A|--after-context= -B|--before-context= -C|--context= --group-separator= --no-group-separator "+
			"-a|--text --binary-files= -D|--devices= -d|--directories= --exclude= --exclude-from=r --exclude-dir= -I --include= "+
			"-r|--recursive -R|--dereference-recursive! --line-buffered -U|--binary -V"+help), followDoes, "-R"),
		allow: []string{"grep -rn TODO src", "grep -E 'a|b' a.go", "grep -e x -e y a.go", "grep -C3 func a.go", "grep -rn '--include=*.go' TODO .", "grep TODO -r ."},
		deny:  []string{"grep -R x .", "grep --dereference-recursive x src", "grep x /etc/passwd", "grep -f /outside/patterns a.go", "grep -r secret ~/.ssh", "grep x ../other/a"},
	}
	rgSpec := &spec{script: tLit, operands: ops(tRead),
		opts: does(does(o("-A|--after-context= --auto-hybrid-regex -B|--before-context= --binary --block-buffered -b|--byte-offset "+
			"-s|--case-sensitive --color= --colors= --column -C|--context= --context-separator= -c|--count --count-matches --crlf "+
			"--debug --dfa-size-limit= -E|--encoding= --engine= --field-context-separator= --field-match-separator= --files "+
			"-l|--files-with-matches --files-without-match -F|--fixed-strings -L|--follow! --generate= -g|--glob= --glob-case-insensitive "+
			"-h|--help --heading --no-heading -. --hidden --hostname-bin=x --hyperlink-format= --iglob= -i|--ignore-case --ignore-file=r "+
			"--ignore-file-case-insensitive --include-zero -v|--invert-match --json --line-buffered -n|--line-number -N|--no-line-number "+
			"-x|--line-regexp -M|--max-columns= --max-columns-preview -m|--max-count= -d|--max-depth= --max-filesize= --mmap "+
			"-U|--multiline --multiline-dotall --no-config --no-ignore --no-ignore-dot --no-ignore-exclude --no-ignore-files "+
			"--no-ignore-global --no-ignore-messages --no-ignore-parent --no-ignore-vcs --no-messages --no-require-git --no-unicode "+
			"-0|--null --null-data --one-file-system -o|--only-matching --passthru|--passthrough --path-separator= -P|--pcre2 "+
			"--pcre2-version --pre=x --pre-glob= -p|--pretty -q|--quiet --regex-size-limit= -e|--regexp=+script -f|--file=r+script "+
			"-r|--replace= -z|--search-zip -S|--smart-case --sort= --sortr= --stats --stop-on-nonmatch -a|--text -j|--threads= --trace "+
			"--trim -t|--type= -T|--type-not= --type-add= --type-clear= --type-list -u|--unrestricted --vimgrep -H|--with-filename "+
			"-I|--no-filename -w|--word-regexp -V|--version"), "runs a program on every file searched", "--pre", "--hostname-bin"), followDoes, "-L"),
		allow: []string{"rg -n TODO", "rg --pre-glob '*.gz' x", "rg -t go -i 'func main' src", "rg --files", "rg -g '!vendor' x"},
		deny:  []string{"rg --pre=bash x", "rg --pre bash x", "rg --hostname-bin=sh x", "rg x /etc", "rg --pr=bash x", "rg -L x", "rg --follow x src"},
	}
	findSpec := &spec{style: findExpr,
		opts: does(does(o("-a -and -o -or -not -false -true -d -depth -follow! -help -ignore_readdir_race -noignore_readdir_race "+
			"-maxdepth= -mindepth= -mount -noleaf -regextype= -version -warn -nowarn -xdev -daystart "+
			"-amin= -anewer=r -atime= -cmin= -cnewer=r -ctime= -empty -executable -fstype= -gid= -group= -ilname= -iname= -inum= "+
			"-ipath= -iregex= -iwholename= -links= -lname= -mmin= -mtime= -name= -newer=r -nogroup -nouser -path= -perm= "+
			"-readable -regex= -samefile=r -size= -type= -uid= -used= -user= -wholename= -writable -xtype= -context= "+
			"-print -print0 -printf= -ls -prune -quit -fprint=w -fprint0=w -fprintf=w -fls=w -delete! "+
			"-exec=... -execdir=... -ok=... -okdir=..."),
			"deletes files", "-delete"), followDoes, "-follow"),
		allow: []string{"find . -name x.go", "find . -type f -newer a.go", "find src -name '*.go' -not -path './vendor/*'", "find . -maxdepth 2 -type d", "find . -name '*.tmp' -print0"},
		deny:  []string{"find . -exec rm {} ;", "find . -execdir sh -c x ;", "find . -ok rm {} ;", "find . -delete", "find . -fprint /tmp/x", "find -- . -delete", "find / -name id_rsa", "find . -frobnicate", "find -L . -name x", "find . -follow -name x"},
	}
	// -newerXY takes a reference whose kind the letters say; the reference
	// is read as a path (a time string is a path that stays inside).
	for _, x := range "aBcmt" {
		for _, y := range "aBcmt" {
			findSpec.opts = append(findSpec.opts, &optSpec{names: []string{"-newer" + string(x) + string(y)}, arg: reqArg, typ: tRead})
		}
	}
	for _, n := range []string{"-exec", "-execdir", "-ok", "-okdir"} {
		findOpt(findSpec.opts, n).does = "runs a program on every file found"
	}
	sedSpec := &spec{abbrev: true, script: tSed, operands: ops(tRead),
		opts: does(o("-n|--quiet|--silent --debug -e|--expression=sed+script -f|--file=x+script --follow-symlinks -i|--in-place=?+inplace "+
			"-l|--line-length= --posix -E|-r|--regexp-extended -s|--separate --sandbox -u|--unbuffered -z|--null-data"+help),
			"runs the sed script in a file, which may run commands", "-f"),
		allow: []string{"sed -n 1,5p x.txt", "sed s/hello/world/g x.txt", "sed -e 's/[0-9]+/N/g' -e /^#/d x.txt", "sed -E 's|a|b|2' x.txt", "sed '/x/{s/a/b/;p}' x.txt", "sed -i s/a/b/ x.txt", "sed -n '1,/^$/p' README.md"},
		deny: []string{"sed -i s/a/b/ /outside/x.txt", "sed s/a/b/e x.txt", "sed 1e x.txt", "sed 'w /tmp/x' a", "sed -e p -e 'r /outside/secret' a", "sed s/a/b/w/tmp/x a", "sed -f evil.sed a",
			"sed -n --expr='1e touch /out/x' /etc/passwd", "sed -n p /etc/passwd", "sed -i s/a/b/ .git/config"},
	}
	awkSpec := &spec{abbrev: true, script: tAwk, operands: ops(tRead), assigns: tLit,
		opts: does(o("-F|--field-separator= -v|--assign= -f|--file=x+script -e|--source=awk+script -E|--exec=x+script -i|--include=x -l|--load=x "+
			"-W=x -b|--characters-as-bytes -c|--traditional -C|--copyright -d|--dump-variables=?w -D|--debug=?x -g|--gen-pot "+
			"-h|--help -I|--trace -k|--csv -L|--lint=? -M|--bignum -N|--use-lc-numeric -n|--non-decimal-data -o|--pretty-print=?w "+
			"-O|--optimize -p|--profile=?w -P|--posix -r|--re-interval -s|--no-optimize -S|--sandbox -t|--lint-old -V|--version"),
			"runs an awk program from a file, which may run commands", "-f", "-E"),
		allow: []string{`awk '{print $1}' a`, `awk -F, '$3 > 100 {print $1}' a`, `awk -v n=3 'NR < n' a`, `awk '{s+=$2} END {print s}' n=1 data.txt`},
		deny: []string{`awk 'BEGIN{system("sh")}'`, `awk '{print | "sh"}' a`, `awk '{print > "/tmp/x"}' a`, `awk 'BEGIN{while ((getline l < "/outside/secret") > 0) print l}'`,
			"awk -f evil.awk a", `awk '@load "x"'`, "mawk -W exec evil.awk a", `awk '{print}' /etc/passwd`},
	}
	jqSpec := &spec{script: tJq, operands: ops(tRead),
		opts: does(o("-n|--null-input -R|--raw-input -s|--slurp -c|--compact-output -r|--raw-output --raw-output0 -j|--join-output "+
			"-a|--ascii-output -S|--sort-keys -C|--color-output -M|--monochrome-output --tab --indent= --unbuffered --stream "+
			"--stream-errors --seq -f|--from-file!=+script -L=d -e|--exit-status --arg=2 --argjson=2 --slurpfile=2r --rawfile=2r "+
			"--args+argslit --jsonargs+argslit -h|--help -V|--version --build-configuration"),
			"reads the filter from a file, whose imports the judge does not read", "-f"),
		allow: []string{"jq .name package.json", "jq -r '.items[] | .id' data.json", "jq --arg v 1 '.x = $v' a.json", "jq -n '1+1'"},
		deny:  []string{`jq 'import "x" as x; .' a.json`, "jq . /etc/passwd", "jq --rawfile s /outside/secret -n '$s'", "jq -n -f q.jq", "jq --from-file q.jq a.json"},
	}
	return map[string]*spec{
		"grep":  grepSpec,
		"egrep": grepSpec,
		"fgrep": grepSpec,
		"rg":    rgSpec,
		"find":  findSpec,
		"sed":   sedSpec,
		"awk":   awkSpec,
		"gawk":  awkSpec,
		"mawk":  awkSpec,
		"nawk":  awkSpec,
		"jq":    jqSpec,
	}
}
