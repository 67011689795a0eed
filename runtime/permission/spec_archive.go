package permission

// The specs of tar, gzip, zip and unzip. tar's -f is written when the mode
// creates or appends, read otherwise; its operands are read when it
// creates and are member names when it extracts; -C is a directory it
// works in. Programs that tar runs (-I, --to-command, --checkpoint-action,
// --info-script, --rsh-command) and absolute names (-P) are refused.
//
// The names of an archive's members are never seen by the judge: an
// archive may hold .git/hooks/post-checkout (made with --transform, or
// from any file), and extracting it into the working directory installs
// a hook. So tar -x is allowed only into a directory given with one -C
// before the operands (tar -xzf r.tar.gz -C build), judged as a directory
// it works in; extracting into the working directory itself is refused
// unless the entry names -x (Bash(tar -x:*), Bash(tar -xzf:*)), and so is
// a -C that is or holds the working directory where its links lead (a
// link to ., the workspace's absolute path) or holds a link leading out
// of it to the top, a hidden path or outside (specEnv.extractHere). unzip
// extracts alike only into one -d directory (unzipRetype). What members
// land below that directory (build/.git/config, a nested repository
// whose configuration runs programs when git runs in build) is not seen;
// docs/permissions.md says so. Renaming
// members (--transform) and lists of names read from a file (-T) are
// refused unless named; an archive named HOST:FILE (a ':' before any
// '/') is on another host, which tar reaches by running rsh or ssh, and
// is refused unless --force-local is given.

import (
	"path"
	"strings"
)

// archiveSpecs builds this file's specs, by program name (see specTable).
func archiveSpecs() map[string]*spec {
	tarSpec := &spec{abbrev: true, firstCluster: true, operands: ops(tMember),
		opts: does(does(does(does(o("-A|--catenate|--concatenate+create -c|--create+create -d|--diff|--compare --delete -r|--append+create -t|--list "+
			"--test-label -u|--update+create -x|--extract|--get --check-device --no-check-device -g|--listed-incremental=w "+
			"--hole-detection= -G|--incremental --ignore-failed-read --level= -n|--seek --no-seek --occurrence=? --restrict --sparse-version= "+
			"-S|--sparse -k|--keep-old-files --keep-newer-files --keep-directory-symlink --no-overwrite-dir --one-top-level=? --overwrite "+
			"--overwrite-dir --recursive-unlink --remove-files+inplace --skip-old-files -U|--unlink-first -W|--verify --ignore-command-error "+
			"--no-ignore-command-error -O|--to-stdout --atime-preserve=? --delay-directory-restore --no-delay-directory-restore "+
			"--group= --group-map=r --mode= --mtime= -m|--touch --no-same-owner --no-same-permissions --numeric-owner --owner= "+
			"--owner-map=r -p|--preserve-permissions|--same-permissions --same-owner -s|--preserve-order|--same-order --sort= "+
			"--acls --no-acls --selinux --no-selinux --xattrs --no-xattrs --xattrs-exclude= --xattrs-include= "+
			"-f|--file=archive --force-local -M|--multi-volume -L|--tape-length= -b|--blocking-factor= -B|--read-full-records "+
			"-i|--ignore-zeros --record-size= -H|--format= --old-archive|--portability --posix --pax-option= -V|--label= "+
			"-a|--auto-compress -j|--bzip2 -J|--xz --lzip --lzma --lzop --no-auto-compress -z|--gzip|--gunzip|--ungzip -Z|--compress|--uncompress "+
			"--zstd --add-file=r --backup=? -C|--directory=d --exclude= --exclude-backups --exclude-caches --exclude-caches-all "+
			"--exclude-caches-under --exclude-ignore= --exclude-ignore-recursive= --exclude-tag= --exclude-tag-all= --exclude-tag-under= "+
			"--exclude-vcs --exclude-vcs-ignores -h|--dereference! --hard-dereference -K|--starting-file= --newer-mtime= --no-null "+
			"--no-recursion --no-unquote --no-verbatim-files-from --null -N|--newer|--after-date= --one-file-system --recursion "+
			"--suffix= -T|--files-from!= --unquote --verbatim-files-from -X|--exclude-from=r --anchored --no-anchored --ignore-case "+
			"--no-ignore-case --no-wildcards --no-wildcards-match-slash --wildcards --wildcards-match-slash --checkpoint=? "+
			"--full-time --index-file=w -l|--check-links --no-quote-chars= --quote-chars= --quoting-style= -R|--block-number "+
			"--show-defaults --show-omitted-dirs --show-transformed-names|--show-stored-names --totals=? --utc -v|--verbose "+
			"--warning= -w|--interactive|--confirmation -o --strip-components= --transform|--xform!= -?|--help --usage --version "+
			"-P|--absolute-names!"), "reads and writes names outside the directory it works in", "-P"),
			"renames the members, which may then be extracted anywhere in the working directory (.git/hooks)", "--transform"),
			"reads the names to archive from a file the judge does not read", "-T"), followDoes, "-h"),
		retype: tarRetype,
		allow: []string{"tar -tf a.tar", "tar -xvf a.tar -C out", "tar tzf a.tar.gz", "tar -xzf r.tar.gz -C build", "tar -czf out.tar.gz src", "tar xzf a.tgz -C out",
			"tar -cf - src", "tar -tf a:b.tar --force-local", "tar -tf ./host:a.tar"},
		deny: []string{"tar --to-command=sh -xf a.tar", "tar -I sh -cf a.tar x", "tar --use-compress-program=sh -cf a.tar x", "tar xIf sh a.tar",
			"tar -xvIf sh a.tar", "tar --use-comp=sh -cf a.tar x", "tar -xf a.tar -C /outside", "tar -czf /tmp/x.tgz src", "tar -cf a.tar /etc/shadow",
			"tar --checkpoint-action=exec=sh -cf a.tar x", "tar -xPf a.tar", "tar -xvf a.tar", "tar xzf a.tgz", "tar -xf a.tar -C .",
			"tar -xf a.tar -C build -C ..", "tar -cf h.tar --transform=s,hk,.git/hooks/x, hk", "tar -tf host:a.tar", "tar -cf x.tar -T list.txt", "tar -chf a.tar src", "tar chf a.tar src", "tar -c --dereference -f a.tar src"},
	}
	gzipSpec := &spec{abbrev: true, numeric: true, operands: ops(tWrite),
		opts: does(o("-a|--ascii -c|--stdout|--to-stdout -d|--decompress|--uncompress -f|--force -h|--help -k|--keep -l|--list -L|--license "+
			"-n|--no-name -N|--name -q|--quiet -r|--recursive! --rsyncable -S|--suffix= --synchronous -t|--test -v|--verbose -V|--version --best --fast"),
			"replaces every file below the directories it names, hidden ones (.git/config, .env) included", "-r"),
		allow: []string{"gzip -k data.txt", "gzip -d a.gz", "gzip -dc a.gz", "gzip -9 a.txt"},
		deny:  []string{"gzip /outside/x", "gzip -S .x .git/config", "gzip -r .", "gunzip -r src"},
	}
	zcatSpec := &spec{abbrev: true, operands: ops(tRead), opts: o("-f|--force -h|--help -L|--license -q|--quiet -V|--version -v|--verbose"),
		allow: []string{"zcat a.gz"}, deny: []string{"zcat /outside/a.gz"}}
	zipSpec := &spec{numeric: true, operands: ops(tWrite, tRead),
		opts: does(o("-r|--recurse-paths -R|--recurse-patterns -q|--quiet -v|--verbose -j|--junk-paths -y|--symlinks -X|--no-extra -D|--no-dir-entries "+
			"-u|--update -f|--freshen -d|--delete -l|--to-crlf -ll|--from-crlf -o|--latest-time -x|--exclude= -i|--include= -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 "+
			"-n|--suffixes= -t|--from-date= -tt|--before-date= -T|--test! -TT|--unzip-command=x -e|--encrypt -P|--password= -@|--names-stdin! "+
			"-A|--adjust-sfx -J|--junk-sfx -g|--grow -F|--fix -FF|--fixfix -z|--archive-comment -c|--entry-comments -b|--temp-path=d "+
			"-O|--output-file|--out=w -h|--help -h2|--more-help -sf|--show-files -L|--license -V|--version -m|--move+inplace"),
			"reads the names of the files to archive from its input, which the judge does not read", "-@"),
		walk:  zipWalk,
		allow: []string{"zip -r out.zip src", "zip -q a.zip a.txt b.txt"},
		deny:  []string{"zip -r /tmp/x.zip src", "zip -r out.zip /etc", "zip -T a.zip x", "zip -TT sh a.zip x"},
	}
	unzipSpec := &spec{operands: ops(tRead, tLit),
		opts:   o("-Z! -l -t -v -z -T -p -c -f -u -o -n -q -qq -j -a -aa -b -B -C -D -DD -L -M -N -S -U -UU -V -W -X -Y -K -O= -I= -P= -d=d -x="),
		retype: unzipRetype,
		allow:  []string{"unzip -l a.zip", "unzip -o a.zip -d build", "unzip -q a.zip -d out", "unzip -t a.zip", "unzip -p a.zip x.txt", "unzip a.zip -x '*.md' -d build"},
		deny: []string{"unzip a.zip -d /outside", "unzip /outside/a.zip", "unzip -: a.zip", "unzip a.zip", "unzip -q a.zip", "unzip -o a.zip -d .",
			"unzip a.zip -d build/..", "unzip a.zip -d build -d .", "unzip a.zip -d .git"},
	}
	return map[string]*spec{
		"tar":    tarSpec,
		"gzip":   gzipSpec,
		"gunzip": gzipSpec,
		"zcat":   zcatSpec,
		"zip":    zipSpec,
		"unzip":  unzipSpec,
	}
}

// tarExtractHere is tar -x into the working directory, and tarRemote an
// archive on another host (see tarRetype).
var (
	tarExtractHere = &optSpec{names: []string{"-x"}, typ: tCode,
		does: "writes whatever names the archive holds (.git/hooks, .envrc and other hidden files included) into the working directory; give the directory with -C"}
	tarRemote = &optSpec{names: []string{"-f"}, typ: tCode,
		does: "names an archive on another host (HOST:FILE), which tar reaches by running rsh or ssh; add --force-local for a local file"}
)

// tarRetype refuses, unless named, tar -x without exactly one -C (before
// the operands) naming a directory other than the working directory,
// and, without --force-local, an archive named HOST:FILE.
func tarRetype(p *specParse) {
	var extract *specArg
	dirs, here, firstOperand, forceLocal, by, dir := 0, false, -1, false, -1, -1
	for k := range p.args {
		a := &p.args[k]
		switch {
		case a.opt == nil && !a.unknown && a.key == "":
			if firstOperand < 0 {
				firstOperand = a.at
			}
		case a.key == "-x":
			extract, by = a, k
		case a.key == "-C":
			dirs, dir = dirs+1, k
			// A -C after an operand applies to the members named after
			// it only; "." and build/.. are the working directory.
			if c := path.Clean(a.value); c == "." || a.value == "" || firstOperand >= 0 && a.at > firstOperand {
				here = true
			}
		case a.key == "--force-local":
			forceLocal = true
		}
	}
	if extract != nil && (dirs != 1 || here) {
		extract.typ, extract.opt = tCode, tarExtractHere
	} else if extract != nil {
		// The one -C may still be the working directory through a link.
		p.extract = &extraction{dir: dir, by: by, key: "-x", does: extractDoes}
	}
	if forceLocal {
		return
	}
	for k := range p.args {
		if a := &p.args[k]; a.opt != nil && a.opt.typ == tArchive && remoteArchive(a.value) {
			a.typ, a.opt, a.key = tCode, tarRemote, "--rsh-command"
			if a.as == "" {
				a.as = "-f"
			}
		}
	}
}

// extractDoes is what an extraction does where the judge cannot see.
const extractDoes = "writes whatever names the archive holds (.git/hooks, .envrc and other hidden files included) there"

// unzipRetype makes an extraction of unzip's archive (any mode but -l, -t,
// -v, -z, -p, -c and -Z, which write no file) an extraction into its one
// -d directory (specEnv.extractHere): without one -d, or with one that is
// or holds the working directory, it is refused unless the entry's own
// words name the archive (Bash(unzip dist.zip:*)). Naming -d does not
// allow it: Bash(unzip -d build:*) pins a directory and must not let a
// second -d or -d . through.
func unzipRetype(p *specParse) {
	archive, dir, dirs := -1, -1, 0
	for k := range p.args {
		a := &p.args[k]
		switch {
		case a.opt == nil && !a.unknown && a.key == "" && a.pos == 0:
			archive = k
		case a.key == "-d":
			dirs, dir = dirs+1, k
		case a.key == "-l" || a.key == "-t" || a.key == "-v" || a.key == "-z" || a.key == "-p" || a.key == "-c" || a.key == "-Z":
			return
		}
	}
	if archive < 0 {
		return
	}
	if dirs != 1 {
		dir = -1
	}
	p.extract = &extraction{dir: dir, by: archive, does: extractDoes}
}

// remoteArchive reports whether GNU tar reads the archive name s as
// [USER@]HOST:FILE: a ':' before any '/'.
func remoteArchive(s string) bool {
	c := strings.IndexByte(s, ':')
	return c >= 0 && !strings.Contains(s[:c], "/")
}
