package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		name string
		stat string
		want procStat
		ok   bool
	}{
		{name: "plain", stat: "1234 (sleep) S 1 1234 1234 0 -1 4194560 98 0 0 0 0 0 0 0 20 0 1 0 5550123 5439488 216 18446744073709551615",
			want: procStat{state: 'S', start: 5550123}, ok: true},
		{name: "name with spaces and parentheses", stat: "7 (a ) (b) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 42 0 0",
			want: procStat{state: 'R', start: 42}, ok: true},
		{name: "zombie", stat: "9 (x) Z 1 9 9 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 7 0 0", want: procStat{state: 'Z', start: 7}, ok: true},
		{name: "short", stat: "9 (x) S 1 2 3"},
		{name: "no space after the name", stat: "9 (x)S 1 9 9 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 7 0 0"},
		{name: "no name", stat: "9 x S 1 2 3 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 7 0 0"},
		{name: "bad start", stat: "9 (x) S 1 9 9 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 -7 0 0"},
		{name: "empty", stat: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseStat([]byte(tt.stat))
			if ok != tt.ok || got != tt.want {
				t.Errorf("parseStat = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add([]byte("1234 (sleep) S 1 1234 1234 0 -1 4194560 98 0 0 0 0 0 0 0 20 0 1 0 5550123 5439488 216"))
	f.Add([]byte("7 (a ) (b) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 42 0 0"))
	f.Add([]byte(")"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, ok := parseStat(b)
		if !ok {
			return
		}
		// The state is the field after the last ')', the start time the
		// 20th after it, whatever the name holds.
		i := strings.LastIndexByte(string(b), ')')
		rest := strings.Fields(string(b[i+2:]))
		if rest[0] != string([]byte{st.state}) || strings.TrimLeft(rest[19], "0") != strings.TrimLeft(fmt.Sprint(st.start), "0") {
			t.Fatalf("parseStat(%q) = %+v, fields %q", b, st, rest)
		}
	})
}

func TestCgroupPath(t *testing.T) {
	const (
		unified = "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
		hybrid  = "25 24 0:22 / /sys/fs/cgroup ro shared:9 - tmpfs tmpfs ro,mode=755\n" +
			"26 25 0:23 / /sys/fs/cgroup/unified rw shared:10 - cgroup2 cgroup2 rw,nsdelegate\n" +
			"27 25 0:24 / /sys/fs/cgroup/memory rw shared:11 - cgroup cgroup rw,memory\n"
		nested = "40 30 0:26 /user.slice /mnt/cg rw - cgroup2 cgroup2 rw\n"
	)
	tests := []struct {
		name, own, mounts, want, err string
	}{
		{name: "unified", own: "0::/user.slice/user-1000.slice/session-2.scope\n", mounts: unified,
			want: "/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope"},
		{name: "hybrid", own: "4:memory:/x\n1:name=systemd:/\n0::/\n", mounts: hybrid, want: "/sys/fs/cgroup/unified"},
		{name: "mount of a subtree", own: "0::/user.slice/app\n", mounts: nested, want: "/mnt/cg/app"},
		{name: "outside the mounted subtree", own: "0::/system.slice\n", mounts: nested, err: "no cgroup2 file system is mounted"},
		{name: "prefix is not a parent", own: "0::/user.slicex\n", mounts: nested, err: "no cgroup2 file system is mounted"},
		{name: "v1 only", own: "4:memory:/x\n", mounts: hybrid, err: "in no cgroup v2"},
		{name: "no cgroup2 mount", own: "0::/\n", mounts: "27 25 0:24 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n", err: "no cgroup2"},
		{name: "relative", own: "0::x\n", mounts: unified, err: "in no cgroup v2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := cgroupPath([]byte(tt.own), []byte(tt.mounts))
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if got != tt.want || (tt.err == "") != (err == nil) || !strings.Contains(gotErr, tt.err) {
				t.Errorf("cgroupPath = %q, %v; want %q, %q", got, err, tt.want, tt.err)
			}
		})
	}
}

func FuzzCgroupPath(f *testing.F) {
	f.Add([]byte("0::/a/b\n"), []byte("30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"))
	f.Add([]byte("0::/user.slice/app\n"), []byte("40 30 0:26 /user.slice /mnt/cg rw - cgroup2 cgroup2 rw\n"))
	f.Add([]byte("0::/../x"), []byte("1 2 3 /.. /m - cgroup2 x"))
	f.Fuzz(func(t *testing.T, own, mounts []byte) {
		got, err := cgroupPath(own, mounts)
		if err != nil {
			return
		}
		// Always a clean absolute path under a listed cgroup2 mount point.
		if !filepath.IsAbs(got) || filepath.Clean(got) != got {
			t.Fatalf("cgroupPath = %q, not clean and absolute", got)
		}
		if !strings.Contains(string(mounts), "cgroup2") {
			t.Fatalf("cgroupPath = %q without a cgroup2 mount", got)
		}
	})
}

func TestParseInfo(t *testing.T) {
	tests := []struct {
		name, info string
		pid        int
		ns         string
		ok         bool
	}{
		{name: "bwrap 0.8", info: "{\n    \"child-pid\": 24549,\n    \"cgroup-namespace\": 4026532182,\n    \"pid-namespace\": 4026532181\n}\n",
			pid: 24549, ns: "pid:[4026532181]", ok: true},
		{name: "no pid namespace", info: `{"child-pid": 5}`},
		{name: "no pid", info: `{"pid-namespace": 5}`},
		{name: "negative pid", info: `{"child-pid": -1, "pid-namespace": 5}`},
		{name: "not JSON", info: "bwrap: oops"},
		{name: "empty", info: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pid, ns, ok := parseInfo(strings.NewReader(tt.info))
			type res struct {
				Pid int
				NS  string
				OK  bool
			}
			if diff := cmp.Diff(res{tt.pid, tt.ns, tt.ok}, res{pid, ns, ok}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParseInfo(f *testing.F) {
	f.Add([]byte(`{"child-pid": 24549, "pid-namespace": 4026532181}`))
	f.Add([]byte(`{"child-pid": 1e3, "pid-namespace": 1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		pid, ns, ok := parseInfo(strings.NewReader(string(b)))
		if !ok {
			return
		}
		var inode uint64
		if pid <= 0 || !strings.HasPrefix(ns, "pid:[") || fmt.Sprintf("pid:[%d]", mustScan(t, ns, &inode)) != ns || inode == 0 {
			t.Fatalf("parseInfo(%q) = %d, %q", b, pid, ns)
		}
	})
}

func mustScan(t *testing.T, ns string, inode *uint64) uint64 {
	if _, err := fmt.Sscanf(ns, "pid:[%d]", inode); err != nil {
		t.Fatalf("%q: %v", ns, err)
	}
	return *inode
}

// TestCgroupLimit writes the limits into a directory that looks like a
// cgroup with the pids controller only: pids.max is set, memory.max (not
// there: no memory controller) is not created, and a limit of 0 or less
// writes nothing.
func TestCgroupLimit(t *testing.T) {
	tests := []struct {
		name   string
		pids   int
		memory int64
		files  []string
		want   map[string]string
	}{
		{name: "pids only", pids: 64, memory: 1 << 20, files: []string{"pids.max"}, want: map[string]string{"pids.max": "64"}},
		{name: "both", pids: 64, memory: 1 << 20, files: []string{"pids.max", "memory.max"}, want: map[string]string{"pids.max": "64", "memory.max": "1048576"}},
		{name: "no limits", pids: -1, files: []string{"pids.max", "memory.max"}, want: map[string]string{"pids.max": "max", "memory.max": "max"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte("max"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := (&cgroup{dir: dir}).limit(tt.pids, tt.memory); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
				got[e.Name()] = string(b)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
