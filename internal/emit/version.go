package emit

import "runtime/debug"

// modulePath is toolgen's module, whose version generated files name.
const modulePath = "github.com/toolgen/toolgen"

// Version returns the toolgen version that generated files name in their
// header: the version of the toolgen module as the build that runs it
// records it (the version a user's go.mod requires, say v0.4.1), or
// "devel" when toolgen is the main module (working on toolgen itself, where
// the go command records "(devel)" or a pseudo-version of the checkout),
// when it is replaced by a directory, or when there is no build
// information. "devel" is stable so that the generated files committed in
// toolgen's own repository do not change with every commit.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(info)
}

func versionOf(info *debug.BuildInfo) string {
	if info.Main.Path == modulePath {
		return "devel"
	}
	for _, m := range info.Deps {
		if m.Path != modulePath {
			continue
		}
		if m.Replace != nil {
			m = m.Replace
		}
		if m.Version == "" || m.Version == "(devel)" {
			return "devel"
		}
		return m.Version
	}
	return "devel"
}
