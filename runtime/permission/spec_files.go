package permission

// Specs of the programs that list, read and summarise files and text
// (GNU coreutils, file, tree). Their file operands are read paths.

// fileSpecs builds this file's specs, by program name (see specTable).
func fileSpecs() map[string]*spec {
	lsSpec := &spec{abbrev: true, operands: ops(tRead),
		opts: o("-a|--all -A|--almost-all --author -b|--escape --block-size= -B|--ignore-backups -c -C --color=? -d|--directory -D|--dired -f " +
			"-F|--classify=? --file-type --format= --full-time -g --group-directories-first -G|--no-group -h|--human-readable --si " +
			"-H|--dereference-command-line --dereference-command-line-symlink-to-dir --hide= --hyperlink=? --indicator-style= -i|--inode " +
			"-I|--ignore= -k|--kibibytes -l -L|--dereference -m -n|--numeric-uid-gid -N|--literal -o -p -q|--hide-control-chars " +
			"--show-control-chars -Q|--quote-name --quoting-style= -r|--reverse -R|--recursive -s|--size -S --sort= --time= --time-style= " +
			"-t -T|--tabsize= -u -U -v -w|--width= -x -X -Z|--context --zero -1" + help),
		retype: lsRetype,
		allow:  []string{"ls", "ls -la src", "ls -lhS --color=never .", "ls --sort=time -r", "ls -lL src", "ls -R src"},
		deny:   []string{"ls /outside", "ls --frobnicate", "ls ../other", "ls -RL .", "ls -R --dereference src"},
	}
	catSpec := &spec{abbrev: true, operands: ops(tRead),
		opts:  o("-A|--show-all -b|--number-nonblank -e -E|--show-ends -n|--number -s|--squeeze-blank -t -T|--show-tabs -u -v|--show-nonprinting" + help),
		allow: []string{"cat README.md", "cat -n a.go b.go", "cat -"},
		deny:  []string{"cat /etc/passwd", "cat ../secret", "cat --x"},
	}
	headSpec := &spec{abbrev: true, numeric: true, operands: ops(tRead),
		opts:  o("-c|--bytes= -n|--lines= -q|--quiet|--silent -v|--verbose -z|--zero-terminated" + help),
		allow: []string{"head -n 20 a.go", "head -5 a.go", "head -c100 a.go", "head --lines=3 a b"},
		deny:  []string{"head /etc/shadow"},
	}
	tailSpec := &spec{abbrev: true, numeric: true, operands: ops(tRead),
		opts: o("-c|--bytes= -f --follow=? -F -n|--lines= --max-unchanged-stats= --pid= -q|--quiet|--silent --retry -s|--sleep-interval= " +
			"-v|--verbose -z|--zero-terminated" + help),
		allow: []string{"tail -n 50 build.log", "tail -20 a.txt", "tail -f log.txt", "tail -n +5 a.txt"},
		deny:  []string{"tail /var/log/auth.log"},
	}
	wcSpec := &spec{abbrev: true, operands: ops(tRead),
		opts:  does(o("-c|--bytes -m|--chars -l|--lines --files0-from!= -L|--max-line-length -w|--words --total="+help), "reads the names of the files to read from a file the judge does not read", "--files0-from"),
		allow: []string{"wc -l a.go b.go", "wc README.md"},
		deny:  []string{"wc -l /etc/passwd", "wc --files0-from=/outside/list"},
	}
	sortSpec := &spec{abbrev: true, operands: ops(tRead),
		opts: does(does(o("-b|--ignore-leading-blanks -d|--dictionary-order -f|--ignore-case -g|--general-numeric-sort -i|--ignore-nonprinting "+
			"-M|--month-sort -h|--human-numeric-sort -n|--numeric-sort -R|--random-sort --random-source=r -r|--reverse --sort= "+
			"-V|--version-sort --batch-size= -c --check=? -C --compress-program=x --debug --files0-from!= -k|--key= -m|--merge "+
			"-o|--output=w -s|--stable -S|--buffer-size= -t|--field-separator= -T|--temporary-directory=d --parallel= -u|--unique "+
			"-z|--zero-terminated"+help), "runs a program to compress its temporary files", "--compress-program"), "reads the names of the files to read from a file the judge does not read", "--files0-from"),
		allow: []string{"sort data.txt", "sort -t, -k2 -n data.txt", "sort -o sorted.txt data.txt", "sort -u -r a b", "sort -- --compress-program=bash"},
		deny:  []string{"sort --compress-program=bash data.txt", "sort --compress-prog=bash data.txt", "sort --compress-program bash data.txt", "sort -o /tmp/x data.txt", "sort -ro/tmp/x data.txt", "sort -o .git/config a"},
	}
	uniqSpec := &spec{abbrev: true, operands: ops(tRead, tWrite), maxOperands: 2,
		opts: o("-c|--count -d|--repeated -D --all-repeated=? -f|--skip-fields= --group=? -i|--ignore-case -s|--skip-chars= -u|--unique " +
			"-z|--zero-terminated -w|--check-chars=" + help),
		allow: []string{"uniq -c a.txt", "uniq a.txt out.txt"},
		deny:  []string{"uniq a.txt /tmp/out"},
	}
	cutSpec := &spec{abbrev: true, operands: ops(tRead),
		opts:  o("-b|--bytes= -c|--characters= -d|--delimiter= -f|--fields= -n --complement -s|--only-delimited --output-delimiter= -z|--zero-terminated" + help),
		allow: []string{"cut -d, -f1,3 data.csv", "cut -c1-10 a.txt"},
	}
	trSpec := &spec{abbrev: true, operands: ops(tLit), maxOperands: 2,
		opts:  o("-c|-C|--complement -d|--delete -s|--squeeze-repeats -t|--truncate-set1" + help),
		allow: []string{"tr a-z A-Z", "tr -d '\\r'", "tr -s ' '"},
	}
	diffSpec := &spec{abbrev: true, operands: ops(tRead),
		opts: o("--normal -q|--brief -s|--report-identical-files -c -C|--context=? -u -U|--unified=? -e|--ed -n|--rcs -y|--side-by-side " +
			"-W|--width= --left-column --suppress-common-lines -p|--show-c-function -F|--show-function-line= --label= --expand-tabs -t " +
			"-T|--initial-tab --tabsize= --suppress-blank-empty -l|--paginate -r|--recursive --no-dereference -N|--new-file " +
			"--unidirectional-new-file --ignore-file-name-case --no-ignore-file-name-case -x|--exclude= -X|--exclude-from=r " +
			"-S|--starting-file= --from-file=r --to-file=r -i|--ignore-case -E|--ignore-tab-expansion -Z|--ignore-trailing-space " +
			"-b|--ignore-space-change -w|--ignore-all-space -B|--ignore-blank-lines -I|--ignore-matching-lines= -a|--text " +
			"--strip-trailing-cr -D|--ifdef= --GTYPE-group-format= --line-format= --LTYPE-line-format= --old-line-format= " +
			"--new-line-format= --unchanged-line-format= --old-group-format= --new-group-format= --unchanged-group-format= " +
			"--changed-group-format= -d|--minimal --horizon-lines= --speed-large-files --color=? --palette= -v" + help),
		walk:  diffWalk,
		allow: []string{"diff a.txt b.txt", "diff -u old/ new/", "diff -ru --exclude=.git a b"},
		deny:  []string{"diff /etc/passwd a.txt", "diff --from-file=/outside/x a"},
	}
	cmpSpec := &spec{abbrev: true, operands: ops(tRead, tRead, tLit), maxOperands: 4,
		opts:  o("-b|--print-bytes -i|--ignore-initial= -l|--verbose -n|--bytes= -s|--quiet|--silent" + help),
		allow: []string{"cmp a.bin b.bin", "cmp -s a b"},
	}
	dateSpec := &spec{abbrev: true, operands: ops(tLit), maxOperands: 1,
		opts: does(o("-d|--date= --debug -f|--file=r -I|--iso-8601=? --resolution -R|--rfc-email --rfc-3339= -r|--reference=r "+
			"-s|--set=x -u|--utc|--universal"+help), "sets the system clock", "-s"),
		allow: []string{"date", "date -u +%s", "date -d yesterday", "date --iso-8601=seconds"},
		deny:  []string{"date -f /outside/secret", "date --file=/outside/secret", "date --fi /outside/secret", "date -s 2020-01-01"},
	}
	echoSpec := &spec{literal: true, allow: []string{"echo hello", "echo -n -e 'a\\tb'", "echo --help"}}
	printfSpec := &spec{literal: true, allow: []string{"printf '%s\\n' a b"}}
	pwdSpec := &spec{noOperands: true, opts: o("-L -P" + help), allow: []string{"pwd", "pwd -P"}}
	trueSpec := &spec{literal: true}
	whichSpec := &spec{operands: ops(tProgram), opts: o("-a -s"), allow: []string{"which go", "which -a python3 node"}}
	fileSpec := &spec{abbrev: true, operands: ops(tRead),
		opts: does(o("--apple -b|--brief -d --debug -E --extension -e|--exclude= --exclude-quiet= -F|--separator= -f|--files-from!= "+
			"-h|--no-dereference -i|--mime --mime-type --mime-encoding -k|--keep-going -l|--list -L|--dereference -m|--magic-file=r "+
			"-N|--no-pad -n|--no-buffer -p|--preserve-date -P|--parameter= -r|--raw -s|--special-files -S|--no-sandbox "+
			"-z|--uncompress -Z|--uncompress-noreport -0|--print0 -v"+help), "reads the names of the files to read from a file the judge does not read", "-f"),
		allow: []string{"file a.bin", "file -b --mime-type img.png"},
		deny:  []string{"file -C -m x.mgc", "file /etc/shadow", "file -f list.txt"},
	}
	statSpec := &spec{abbrev: true, operands: ops(tRead),
		opts:  o("-L|--dereference -f|--file-system --cached= -c|--format= --printf= -t|--terse" + help),
		allow: []string{"stat a.go", "stat -c %s a.go"},
	}
	duSpec := &spec{abbrev: true, operands: ops(tRead),
		opts: does(does(o("-0|--null -a|--all -A|--apparent-size -B|--block-size= -b|--bytes -c|--total -D|--dereference-args -d|--max-depth= "+
			"--files0-from!= -H -h|--human-readable --inodes -k -L|--dereference! -l|--count-links -m -P|--no-dereference "+
			"-S|--separate-dirs --si -s|--summarize -t|--threshold= --time=? --time-style= -X|--exclude-from=r --exclude= -x|--one-file-system"+help), "reads the names of the files to read from a file the judge does not read", "--files0-from"), followDoes, "-L"),
		allow: []string{"du -sh .", "du -h --max-depth=1 src"},
		deny:  []string{"du -sh /root", "du --files0-from=list.txt", "du -L -sh .", "du -aL src"},
	}
	dfSpec := &spec{abbrev: true, operands: ops(tRead),
		opts: o("-a|--all -B|--block-size= -h|--human-readable -H|--si -i|--inodes -k -l|--local --no-sync --output=? -P|--portability " +
			"--sync --total -t|--type= -T|--print-type -x|--exclude-type= -v" + help),
		allow: []string{"df -h", "df -h ."},
	}
	treeSpec := &spec{operands: ops(tRead),
		opts: does(o("-a -d -l! -f -x -L= -R -P= -I= --gitignore --gitfile=r --ignore-case --matchdirs --metafirst --prune --info --infofile=r "+
			"--noreport --charset= --filelimit= -o=w -q -N -Q -p -u -g -s -h --si --du -D --timefmt= -F --inodes --device -v -t -c -U -r "+
			"--dirsfirst --filesfirst --sort= -i -A -S -n -C -X -J -H= -T= --nolinks --hintro=r --houtro=r --fromfile --fromtabfile "+
			"--fflinks --condense --hyperlink --scheme= --authority="+help), followDoes, "-l"),
		allow: []string{"tree", "tree -L 2 src", "tree -a -I node_modules"},
		deny:  []string{"tree -o /tmp/x", "tree /root", "tree -l src"},
	}
	basenameSpec := &spec{abbrev: true, operands: ops(tLit),
		opts:  o("-a|--multiple -s|--suffix= -z|--zero" + help),
		allow: []string{"basename /a/b/c.go .go", "basename -s .go a.go b.go"},
	}
	dirnameSpec := &spec{abbrev: true, operands: ops(tLit), opts: o("-z|--zero" + help), allow: []string{"dirname /a/b/c"}}
	realpathSpec := &spec{abbrev: true, operands: ops(tLit),
		opts:  o("-e|--canonicalize-existing -m|--canonicalize-missing -L|--logical -P|--physical -q|--quiet --relative-to= --relative-base= -s|--strip|--no-symlinks -z|--zero" + help),
		allow: []string{"realpath src/a.go", "realpath --relative-to=. /tmp"},
	}
	nlSpec := &spec{abbrev: true, operands: ops(tRead),
		opts: o("-b|--body-numbering= -d|--section-delimiter= -f|--footer-numbering= -h|--header-numbering= -i|--line-increment= " +
			"-l|--join-blank-lines= -n|--number-format= -p|--no-renumber -s|--number-separator= -v|--starting-line-number= -w|--number-width=" + help),
		allow: []string{"nl -ba a.go"},
	}
	tacSpec := &spec{abbrev: true, operands: ops(tRead), opts: o("-b|--before -r|--regex -s|--separator=" + help), allow: []string{"tac log.txt"}}
	sumSpec := &spec{abbrev: true, operands: ops(tRead),
		opts:  o("-b|--binary -c|--check -t|--text --tag --zero -z --ignore-missing --quiet --status --strict -w|--warn" + help),
		allow: []string{"sha256sum a.tar.gz", "sha256sum -c SUMS"},
	}
	return map[string]*spec{
		"ls":        lsSpec,
		"cat":       catSpec,
		"head":      headSpec,
		"tail":      tailSpec,
		"wc":        wcSpec,
		"sort":      sortSpec,
		"uniq":      uniqSpec,
		"cut":       cutSpec,
		"tr":        trSpec,
		"diff":      diffSpec,
		"cmp":       cmpSpec,
		"date":      dateSpec,
		"echo":      echoSpec,
		"printf":    printfSpec,
		"pwd":       pwdSpec,
		"which":     whichSpec,
		"file":      fileSpec,
		"stat":      statSpec,
		"du":        duSpec,
		"df":        dfSpec,
		"tree":      treeSpec,
		"basename":  basenameSpec,
		"dirname":   dirnameSpec,
		"realpath":  realpathSpec,
		"true":      trueSpec,
		"false":     trueSpec,
		"nl":        nlSpec,
		"tac":       tacSpec,
		"md5sum":    sumSpec,
		"sha1sum":   sumSpec,
		"sha256sum": sumSpec,
		"sha512sum": sumSpec,
	}
}

// followDoes says what an option does that makes a program follow the
// links it meets while it walks a directory (grep -R, rg -L, find -L and
// -follow, tar -h, du -L, tree -l, ls -L with -R): a link inside the
// working directory leads it to read, list or archive what lies outside.
// Such an option is refused unless the entry names it.
const followDoes = "follows every link it meets while it walks the directories, out of the working directory too"

// findFollow is find's -L, typed by readFind: refused unless named.
var findFollow = &optSpec{names: []string{"-L"}, typ: tCode, does: followDoes}

// lsFollow is ls's -L with -R: ls lists the directories links lead to,
// outside the working directory too. -L alone shows the metadata of what
// the links met lead to, and is allowed.
var lsFollow = &optSpec{names: []string{"-L", "--dereference"}, typ: tCode, does: followDoes}

// lsRetype refuses -L unless named when -R is given too.
func lsRetype(p *specParse) {
	recursive := false
	for _, a := range p.args {
		if a.key == "-R" {
			recursive = true
		}
	}
	if !recursive {
		return
	}
	for k := range p.args {
		if a := &p.args[k]; a.key == "-L" {
			a.typ, a.opt = tCode, lsFollow
		}
	}
}
