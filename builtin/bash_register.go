package builtin

import (
	"github.com/toolgen/toolgen/runtime/tool"
)

// The Bash tools join the builtin set here (see register.go's makers).
// The three share one shellKit per Tools call, so that BashOutput and
// KillShell see the commands Bash started.
//
// A malformed Options.PassEnv is reported once, by Bash, the only tool
// that starts commands.
func init() {
	addTool(BashName, func(e *env) (tool.Tool, error) {
		if e.opts.Shell != nil {
			if err := checkPassEnv(e.opts.PassEnv); err != nil {
				return nil, err
			}
		}
		return shellKitOf(e).bashTool(), nil
	})
	addTool(BashOutputName, func(e *env) (tool.Tool, error) { return shellKitOf(e).bashOutputTool(), nil })
	addTool(KillShellName, func(e *env) (tool.Tool, error) { return shellKitOf(e).killShellTool(), nil })
}

// shellKitKey is the env.share key of the Bash tools' kit.
type shellKitKey struct{}

// shellKitOf returns the shell tools' kit of one Tools call, nil without a
// Shell. The kit runs background commands on Options.Background, or on a
// manager of its own when that is nil, with the minimal environment plus
// Options.PassEnv.
func shellKitOf(e *env) *shellKit {
	if e.opts.Shell == nil {
		return nil
	}
	return e.share(shellKitKey{}, func() any {
		k := newShellKit(e.opts.Shell, e.opts.Root, e.opts.Background)
		k.passEnv = bashPassEnv(e.opts.PassEnv)
		return k
	}).(*shellKit)
}
