package permission

// The specs of the go command and gofmt. Flags are read as Go's flag
// package reads them (one or two dashes, -name=value or -name value, no
// clusters, no abbreviations), in any position: go test takes them after
// its packages too. Packages are read paths (./..., ./cmd/x stay inside;
// ../other and /elsewhere do not). -toolexec, -exec, -vettool and -args
// run programs the command line names, and are refused unless the entry
// names them; -ldflags and -gcflags are allowed with the flags that
// neither run a program nor write a file (-s -w -X, -N -l -m). go test,
// go run and go generate run the project's code: the sandbox's job.

func goCmd(flags string, more ...[]*optSpec) *spec {
	s := &spec{style: goFlags, operands: ops(tRead), opts: o(flags)}
	for _, m := range more {
		s.opts = append(s.opts, m...)
	}
	return s
}

// withProject sets what project code a spec runs.
func withProject(s *spec, what string) *spec {
	s.runsProject = what
	return s
}

// goSpecs builds this file's specs, by program name (see specTable).
func goSpecs() map[string]*spec {
	// goBuildFlags are the build flags shared by build, install, list, run,
	// test and vet.
	goBuildFlags := does(o("-C=d -a -n -p= -race -msan -asan -cover -covermode= -coverpkg= -v -work -x -asmflags=gc -buildmode= "+
		"-buildvcs= -compiler= -gccgoflags=x -gcflags=gc -installsuffix= -ldflags=ld -linkshared -mod= -modcacherw -modfile=r "+
		"-overlay=r -pgo=r -pkgdir=w -tags= -trimpath -toolexec=x -json"),
		"runs every build tool through the program it names", "-toolexec")
	// goTestFlags are go test's own flags and the test binary's, with or
	// without the test. prefix.
	goTestFlags := func() []*optSpec {
		own := o("-c -exec=x -o=w -vet= -failfast -fullpath -json -args=...")
		does(own, "runs the test binary through the program it names", "-exec")
		does(own, "passes the rest of the line to the test binary unread", "-args")
		bin := o("-bench= -benchmem -benchtime= -blockprofile=w -blockprofilerate= -count= -coverprofile=w -cpu= -cpuprofile=w " +
			"-fuzz= -fuzzcachedir=w -fuzzminimizetime= -fuzztime= -list= -memprofile=w -memprofilerate= -mutexprofile=w " +
			"-mutexprofilefraction= -outputdir=d -parallel= -run= -short -shuffle= -skip= -testlogfile=w -timeout= -trace=w -v " +
			"-paniconexit0 -gocoverdir=w -artifacts")
		out := append(own, bin...)
		for _, b := range bin {
			out = append(out, &optSpec{names: []string{"-test." + b.names[0][1:]}, arg: b.arg, typ: b.typ})
		}
		return out
	}()
	goSpec := &spec{style: goFlags, noOperands: true,
		opts: o("-h -help"),
		subs: map[string]*spec{
			"build":   goCmd("-o=w", goBuildFlags),
			"install": goCmd("", goBuildFlags),
			"list":    goCmd("-f= -m -u -versions -e -deps -test -export -find -compiled -retracted -reuse=r", goBuildFlags),
			"vet":     goCmd("-vettool=x -c=", goBuildFlags),
			"test":    withProject(goCmd("", goBuildFlags, goTestFlags), "runs the project's tests, which are its own code"),
			"env":     goCmd("-json -changed -w! -u!"),
			"version": goCmd("-m -v -json"),
			"fmt":     goCmd("-n -x -mod="),
			"doc":     goCmd("-all -c -cmd -short -src -u"),
			"help":    goCmd(""),
			"mod": {style: goFlags, noOperands: true, subs: map[string]*spec{
				"download": goCmd("-json -x -reuse=r"),
				"tidy":     goCmd("-e -v -x -diff -go= -compat="),
				"graph":    goCmd("-go= -x"),
				"verify":   goCmd(""),
				"why":      goCmd("-m -vendor"),
				"vendor":   goCmd("-e -v -o=w"),
				"init":     goCmd(""),
			}},
			"run":      {whole: "builds and runs a program"},
			"generate": {whole: "runs the commands written in the project's files"},
			"tool":     {whole: "runs a tool"},
		},
		allow: []string{"go version", "go test ./...", "go build ./...", "go test -run TestX -count=1 ./pkg", "go build -o bin/app ./cmd/app",
			"go build -ldflags='-s -w' ./cmd/app", "go test -coverprofile=cover.out ./...", "go test -c -o pkg.test ./pkg", "go vet ./...",
			"go test -race -count=1 ./...", "go list -m all", "go mod tidy", "go env GOPATH", "go build -ldflags '-X main.version=1.2.3' .",
			"go test -gcflags=all=-N ./...", "go install ./cmd/x", "go test ./... -run TestX -v"},
		deny: []string{"go run ./evil", "go test -exec=sh ./...", "go test -toolexec sh ./...", "go test --exec sh ./...", "go test -coverprofile=/tmp/c ./...",
			"go test -gcflags=-cpuprofile=/outside/x ./...", "go test ./... -args -test.testlogfile=/outside/x", "go build -toolexec=sh ./...",
			"go vet -vettool=sh ./...", "go vet -toolexec=sh ./...", "go install -toolexec=sh ./...", "go env -w GOFLAGS=-toolexec=sh",
			"go build -o /usr/local/bin/x .", "go build -ldflags=-extld=sh .", "go test ../other/...", "go generate ./...", "go frob"},
	}
	gofmtSpec := &spec{style: goFlags, operands: ops(tRead),
		opts:  o("-d -e -l -s -w+inplace -r= -cpuprofile=w"),
		allow: []string{"gofmt -l .", "gofmt -d a.go", "gofmt -w a.go", "gofmt -s -w ."},
		deny:  []string{"gofmt -w /outside/a.go", "gofmt -cpuprofile=/tmp/x ."},
	}
	return map[string]*spec{
		"go":    goSpec,
		"gofmt": gofmtSpec,
	}
}
