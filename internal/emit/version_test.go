package emit

import (
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestVersionOf(t *testing.T) {
	dep := func(path, version string, replace *debug.Module) *debug.Module {
		return &debug.Module{Path: path, Version: version, Replace: replace}
	}
	tests := []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"toolgen itself", debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.0.0-20261201-abcdef+dirty"}}, "devel"},
		{"a user's pin", debug.BuildInfo{Main: debug.Module{Path: "example.com/app"}, Deps: []*debug.Module{dep("golang.org/x/tools", "v0.30.0", nil), dep(modulePath, "v0.4.1", nil)}}, "v0.4.1"},
		{"replaced by a directory", debug.BuildInfo{Main: debug.Module{Path: "example.com/app"}, Deps: []*debug.Module{dep(modulePath, "v0.4.1", dep("../toolgen", "", nil))}}, "devel"},
		{"replaced by a version", debug.BuildInfo{Main: debug.Module{Path: "example.com/app"}, Deps: []*debug.Module{dep(modulePath, "v0.4.1", dep("example.com/fork", "v0.4.2", nil))}}, "v0.4.2"},
		{"not a dependency", debug.BuildInfo{Main: debug.Module{Path: "example.com/app"}}, "devel"},
	}
	var got, want []string
	for _, tt := range tests {
		got = append(got, tt.name+": "+versionOf(&tt.info))
		want = append(want, tt.name+": "+tt.want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("versionOf (-want +got):\n%s", diff)
	}
}
