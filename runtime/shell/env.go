package shell

import (
	"fmt"
	"strings"
)

// scrubbed reports whether a variable is removed from every command's
// environment: those that make bash run code (BASH_ENV is sourced by a
// non-interactive bash, ENV by bash in POSIX mode, BASH_FUNC_* are exported
// functions) or switch options on before the command line is read
// (SHELLOPTS, BASHOPTS: xtrace with a crafted PS4 runs code).
func scrubbed(name string) bool {
	switch name {
	case "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS":
		return true
	}
	return strings.HasPrefix(name, "BASH_FUNC_")
}

// passes reports whether PassEnv lets name through.
func passes(pass []string, name string) bool {
	if pass == nil {
		return true
	}
	for _, p := range pass {
		if prefix, ok := strings.CutSuffix(p, "*"); ok {
			if strings.HasPrefix(name, prefix) {
				return true
			}
		} else if p == name {
			return true
		}
	}
	return false
}

// buildEnv is the command's environment: the parent's entries PassEnv lets
// through, then extra (last wins, in place), minus the scrubbed names.
func buildEnv(parent, pass, extra []string) ([]string, error) {
	env := make([]string, 0, len(parent)+len(extra))
	index := make(map[string]int, len(parent)+len(extra))
	add := func(kv string, key string) {
		if scrubbed(key) {
			return
		}
		if i, ok := index[key]; ok {
			env[i] = kv
			return
		}
		index[key] = len(env)
		env = append(env, kv)
	}
	for _, kv := range parent {
		key, _, ok := strings.Cut(kv, "=")
		if !ok || key == "" || !passes(pass, key) {
			continue
		}
		add(kv, key)
	}
	for _, kv := range extra {
		key, _, ok := strings.Cut(kv, "=")
		if !ok || key == "" {
			return nil, fmt.Errorf("invalid Env entry %q: want KEY=value", kv)
		}
		if strings.IndexByte(kv, 0) >= 0 {
			return nil, fmt.Errorf("invalid Env entry %q: contains a NUL byte", kv)
		}
		add(kv, key)
	}
	return env, nil
}
