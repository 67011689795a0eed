package permission

// The specs of npm and node. npm reads its options with nopt: long
// options abbreviated to a unique prefix, in any position, and an option
// it does not know becomes configuration the scripts see, so the spec
// refuses it. The arguments after "--" go to the script's own command,
// where an interpreter reads them as options (node --import=data:... runs
// code): refused unless the entry names "--". npm's shorthands are its
// own, not getopt's: -d is --loglevel info and takes no value (-s, -q,
// --dd, --ddd and --verbose set the log level alike), and --script-shell,
// which names the program that runs every script, is code. npm test and npm run run the
// project's scripts: the sandbox's job.

// nodeSpecs builds this file's specs, by program name (see specTable).
func nodeSpecs() map[string]*spec {
	// npmOpts are the options npm takes everywhere.
	npmOpts := does(does(does(o("-w|--workspace=d -ws|--workspaces --include-workspace-root --if-present --ignore-scripts -s|--silent "+
		"-q|--quiet -d --dd --ddd --verbose --loglevel= --color=? --no-color -y|--yes --json --parseable --long -l --global! -g! --prefix=d "+
		"--node-options=x --script-shell=x --userconfig=x --globalconfig=x --registry= --offline --prefer-offline --prefer-online "+
		"--no-audit --no-fund --foreground-scripts --omit= --include= --production --dev --depth= --all -a --unicode --no-progress "+
		"-v|--version -h|--help --dry-run"),
		"runs code through the options it passes to node", "--node-options"),
		"runs the scripts with another shell", "--script-shell"),
		"reads configuration that may name programs to run", "--userconfig", "--globalconfig")
	// npmRun is npm run and its aliases: the script's name, then arguments
	// that npm hands to the script.
	npmRun := &spec{abbrev: true, operands: ops(tLit), dashDashType: tCode,
		runsProject: "runs the project's package.json scripts"}
	// npmScript is npm test, start, stop and restart: the same, without a name.
	npmScript := &spec{abbrev: true, operands: ops(tLit), dashDashType: tCode,
		runsProject: "runs the project's package.json scripts"}
	npmSpec := &spec{abbrev: true, inherit: true, opts: npmOpts, noOperands: true,
		subs: map[string]*spec{
			"run": npmRun, "run-script": npmRun, "rum": npmRun, "urn": npmRun,
			"test": npmScript, "t": npmScript, "tst": npmScript, "start": npmScript, "stop": npmScript, "restart": npmScript,
			"ls": {abbrev: true, operands: ops(tLit)}, "list": {abbrev: true, operands: ops(tLit)}, "ll": {abbrev: true, operands: ops(tLit)},
			"view": {abbrev: true, operands: ops(tLit)}, "info": {abbrev: true, operands: ops(tLit)}, "show": {abbrev: true, operands: ops(tLit)},
			"outdated": {abbrev: true, operands: ops(tLit)}, "audit": {abbrev: true, noOperands: true},
			"config": {noOperands: true, subs: map[string]*spec{"get": {operands: ops(tLit)}, "list": {noOperands: true}}},
			"help":   {operands: ops(tLit)}, "version": {whole: "changes the version and runs the version scripts"},
			"exec": {whole: "runs a package's program"}, "x": {whole: "runs a package's program"},
			"explore": {whole: "runs a shell in a package"}, "init": {whole: "runs a package's initialiser"},
			"create": {whole: "runs a package's initialiser"},
		},
		allow: []string{"npm run test", "npm test", "npm run build", "npm run test -w packages/core", "npm run lint --silent", "npm ls --depth=0", "npm run test --if-present", "npm run test -d", "npm test -dd"},
		deny: []string{"npm exec evil", "npm run test --prefix /outside/notes", "npm run test --node-options=--require=./evil.js", "npm run test --pref=/outside",
			"npm run test -- '--import=data:text/javascript,x'", "npm test -- --require=./evil.js",
			"npm run test -d --script-shell=/outside/evil.sh", "npm run test --script-shell /outside/evil.sh", "npm run test --frobnicate=1", "npm publish"},
	}
	nodeSpec := &spec{abbrev: false, stopAtOperand: true, operands: ops(tProject, tLit),
		runsProject: "runs the project's scripts",
		opts: does(o("-v|--version -h|--help -c|--check --test --test-only --test-name-pattern= --test-skip-pattern= --test-reporter= "+
			"--test-reporter-destination=w --test-concurrency= --test-timeout= --test-shard= --experimental-test-coverage --enable-source-maps "+
			"--no-warnings --no-deprecation --trace-warnings --trace-deprecation --trace-uncaught --throw-deprecation --pending-deprecation "+
			"--max-old-space-size= --stack-size= --unhandled-rejections= --preserve-symlinks --preserve-symlinks-main --input-type= "+
			"--conditions= -C= --abort-on-uncaught-exception --disable-proto= --title= --watch --watch-path=r --watch-preserve-output "+
			"-e|--eval=x -p|--print=x -r|--require=x --import=x --loader|--experimental-loader=x --env-file=r --inspect!=? --inspect-brk!=? "+
			"-i|--interactive!"),
			"opens a debugger port that runs code", "--inspect", "--inspect-brk"),
		allow: []string{"node --version", "node --test", "node script.js --flag", "node --test test/a.test.js", "node --check a.js"},
		deny:  []string{"node -e 'x'", "node --require=/tmp/evil.js a.js", "node /outside/x.js", "node --import=data:text/javascript,x a.js", "node --inspect a.js"},
	}
	return map[string]*spec{
		"npm":  npmSpec,
		"node": nodeSpec,
	}
}
