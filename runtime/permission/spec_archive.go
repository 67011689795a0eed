package permission

// The specs of tar, gzip, zip and unzip. tar's -f is written when the mode
// creates or appends, read otherwise; its operands are read when it
// creates and are member names when it extracts; -C is a directory it
// works in. Programs that tar runs (-I, --to-command, --checkpoint-action,
// --info-script, --rsh-command) and absolute names (-P) are refused.

// archiveSpecs builds this file's specs, by program name (see specTable).
func archiveSpecs() map[string]*spec {
	tarSpec := &spec{abbrev: true, firstCluster: true, operands: ops(tMember),
		opts: does(o("-A|--catenate|--concatenate+create -c|--create+create -d|--diff|--compare --delete -r|--append+create -t|--list "+
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
			"--exclude-vcs --exclude-vcs-ignores -h|--dereference --hard-dereference -K|--starting-file= --newer-mtime= --no-null "+
			"--no-recursion --no-unquote --no-verbatim-files-from --null -N|--newer|--after-date= --one-file-system --recursion "+
			"--suffix= -T|--files-from=r --unquote --verbatim-files-from -X|--exclude-from=r --anchored --no-anchored --ignore-case "+
			"--no-ignore-case --no-wildcards --no-wildcards-match-slash --wildcards --wildcards-match-slash --checkpoint=? "+
			"--full-time --index-file=w -l|--check-links --no-quote-chars= --quote-chars= --quoting-style= -R|--block-number "+
			"--show-defaults --show-omitted-dirs --show-transformed-names|--show-stored-names --totals=? --utc -v|--verbose "+
			"--warning= -w|--interactive|--confirmation -o --strip-components= --transform|--xform= -?|--help --usage --version "+
			"-P|--absolute-names!"), "reads and writes names outside the directory it works in", "-P"),
		allow: []string{"tar -tf a.tar", "tar -xvf a.tar", "tar tzf a.tar.gz", "tar -xzf r.tar.gz -C build", "tar -czf out.tar.gz src", "tar xzf a.tgz", "tar -cf - src"},
		deny: []string{"tar --to-command=sh -xf a.tar", "tar -I sh -cf a.tar x", "tar --use-compress-program=sh -cf a.tar x", "tar xIf sh a.tar",
			"tar -xvIf sh a.tar", "tar --use-comp=sh -cf a.tar x", "tar -xf a.tar -C /outside", "tar -czf /tmp/x.tgz src", "tar -cf a.tar /etc/shadow",
			"tar --checkpoint-action=exec=sh -cf a.tar x", "tar -xPf a.tar"},
	}
	gzipSpec := &spec{abbrev: true, numeric: true, operands: ops(tWrite),
		opts: o("-a|--ascii -c|--stdout|--to-stdout -d|--decompress|--uncompress -f|--force -h|--help -k|--keep -l|--list -L|--license " +
			"-n|--no-name -N|--name -q|--quiet -r|--recursive --rsyncable -S|--suffix= --synchronous -t|--test -v|--verbose -V|--version --best --fast"),
		allow: []string{"gzip -k data.txt", "gzip -d a.gz", "gzip -dc a.gz", "gzip -9 a.txt"},
		deny:  []string{"gzip /outside/x", "gzip -S .x .git/config"},
	}
	zcatSpec := &spec{abbrev: true, operands: ops(tRead), opts: o("-f|--force -h|--help -L|--license -q|--quiet -V|--version -v|--verbose"),
		allow: []string{"zcat a.gz"}, deny: []string{"zcat /outside/a.gz"}}
	zipSpec := &spec{numeric: true, operands: ops(tWrite, tRead),
		opts: o("-r|--recurse-paths -R|--recurse-patterns -q|--quiet -v|--verbose -j|--junk-paths -y|--symlinks -X|--no-extra -D|--no-dir-entries " +
			"-u|--update -f|--freshen -d|--delete -l|--to-crlf -ll|--from-crlf -o|--latest-time -x|--exclude= -i|--include= -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 " +
			"-n|--suffixes= -t|--from-date= -tt|--before-date= -T|--test! -TT|--unzip-command=x -e|--encrypt -P|--password= -@|--names-stdin " +
			"-A|--adjust-sfx -J|--junk-sfx -g|--grow -F|--fix -FF|--fixfix -z|--archive-comment -c|--entry-comments -b|--temp-path=d " +
			"-O|--output-file|--out=w -h|--help -h2|--more-help -sf|--show-files -L|--license -V|--version -m|--move+inplace"),
		allow: []string{"zip -r out.zip src", "zip -q a.zip a.txt b.txt"},
		deny:  []string{"zip -r /tmp/x.zip src", "zip -r out.zip /etc", "zip -T a.zip x", "zip -TT sh a.zip x"},
	}
	unzipSpec := &spec{operands: ops(tRead, tLit),
		opts:  o("-Z! -l -t -v -z -T -p -c -f -u -o -n -q -qq -j -a -aa -b -B -C -D -DD -L -M -N -S -U -UU -V -W -X -Y -K -O= -I= -P= -d=d -x="),
		allow: []string{"unzip a.zip", "unzip -l a.zip", "unzip -o a.zip -d build", "unzip -q a.zip"},
		deny:  []string{"unzip a.zip -d /outside", "unzip /outside/a.zip", "unzip -: a.zip"},
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
